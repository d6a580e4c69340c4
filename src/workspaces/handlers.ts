import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';

type Keys = keyof typeof import('../contract/launch.js').launchMethods;

export function launchHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  void ctx;
  return {} as Pick<Api, Keys>;
}
