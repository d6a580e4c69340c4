import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getCatalog } from './catalog.js';

type Keys = keyof typeof import('../contract/skills.js').skillMethods;

export function catalogHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const catalog = () => getCatalog(ctx);
  return {
    listRoots: async (query) => {
      // Root existence is read fresh; no scan is needed to answer.
      return catalog().roots(query);
    },
    listCatalog: (query) => catalog().list(query),
    getSkill: ({ name, ...query }) => catalog().get(name, query),
    activateSkill: ({ name, ...query }) => catalog().activate(name, query),
    lintPaths: ({ paths }) => catalog().lint(paths),
    agentView: ({ agent, ...query }) => catalog().agentView(agent, query),
    refreshCatalog: ({ dirs }) => catalog().refresh(dirs),
    watchCatalog: async ({ enabled, ...query }) => {
      if (enabled === false) {
        await catalog().unwatch();
        return { watching: [] };
      }
      return { watching: await catalog().watch(query) };
    },
  };
}
