import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';

type Keys = keyof typeof import('../contract/assistants.js').assistantsMethods;

export function assistantsHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  void ctx;
  return {} as Pick<Api, Keys>;
}
