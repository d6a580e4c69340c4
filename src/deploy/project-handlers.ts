import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { applyProject, planProject, registerProjectUndo } from './project-apply.js';
import { installProject } from './install.js';

type Keys = keyof typeof import('../contract/project.js').projectMethods;

/** Project scope: plan and apply a deploy into a project folder, and install a project from its lock. */
export function projectHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  registerProjectUndo(ctx);
  return {
    planProjectDeploy: async (input) => (await planProject(ctx, input)).plan,
    applyProjectDeploy: (input) => applyProject(ctx, input),
    installProject: (input) => installProject(ctx, input),
  };
}
