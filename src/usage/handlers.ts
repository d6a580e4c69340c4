import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getUsage } from './service.js';

type Keys = keyof typeof import('../contract/usage.js').usageMethods;

export function usageHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  return {
    usageSummary: async (o) => getUsage(ctx).summary(o),
    usageScan: async () => getUsage(ctx).scan(),
    usageClear: async () => {
      getUsage(ctx).clear();
      return { cleared: true };
    },
  };
}
