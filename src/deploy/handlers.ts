import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getDeploy } from './service.js';
import { copyDiff, adoptEdit } from './edits.js';

export function deployHandlers(
  ctx: ServiceContext,
): Pick<Api, 'deployStatus' | 'deploySet' | 'deployRepair' | 'deployDiff' | 'deployAdoptEdit'> {
  const d = getDeploy(ctx);
  return {
    deployStatus: async (i) => d.status({ ...(i.agent ? { agent: i.agent } : {}), deep: !!i.deep }),
    deploySet: (i) =>
      d.set({
        skills: i.skills,
        agents: i.agents ?? [],
        allAgents: !!i.allAgents,
        mode: i.mode,
        take: i.take ?? [],
        restore: i.restore ?? [],
        dryRun: !!i.dryRun,
        confirmed: !!i.confirmed,
      }),
    deployRepair: (i) => d.repair({ take: i.take ?? [], restore: i.restore ?? [], dryRun: !!i.dryRun }),
    deployDiff: async (i) => copyDiff(ctx, i.path),
    deployAdoptEdit: (i) => adoptEdit(ctx, i.path, i.resolutions ?? {}),
  };
}
