import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getSync } from './service.js';

export function syncHandlers(ctx: ServiceContext): Pick<Api, 'syncStatus' | 'syncSetup' | 'syncRun' | 'syncResolve'> {
  const s = getSync(ctx);
  return {
    syncStatus: () => s.status(),
    syncSetup: (i) => s.setup(i.url, { adopt: !!i.adopt }),
    syncRun: (i) => s.sync({ adopt: !!i.adopt }),
    syncResolve: async (i) => {
      s.resolve(i.unit, i.take);
      return { unit: i.unit, take: i.take };
    },
  };
}
