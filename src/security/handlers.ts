import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';

type Keys = keyof typeof import('../contract/security.js').securityMethods;

export function securityHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  void ctx;
  return {} as Pick<Api, Keys>;
}
