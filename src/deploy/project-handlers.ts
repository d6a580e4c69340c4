import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { applyProject, planProject } from './project-apply.js';
import { installProject } from './install.js';

type Keys = keyof typeof import('../contract/project.js').projectMethods;

/** Project scope: plan and apply a deploy into a project folder, and install a project from its lock. */
export function projectHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  // undo and redo are the library's own (entryRoots: the entry's project is where they may act)
  return {
    planProjectDeploy: async (input) => (await planProject(ctx, input)).plan,
    applyProjectDeploy: (input) => applyProject(ctx, input),
    installProject: (input) => installProject(ctx, input),
  };
}
