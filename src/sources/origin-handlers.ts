import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { skillOrigins } from '../library/origins.js';
import { getSources } from './service.js';

type Keys = keyof typeof import('../contract/origins.js').originMethods;

/** Where a library skill came from: the library's import record plus this domain's source record. */
export function originHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  return {
    skillOrigin: async (input) => skillOrigins(ctx, input.name, getSources(ctx).listProvenance()[input.name] ?? null),
  };
}
