import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { verifyAgent } from './verify.js';

type Keys = keyof typeof import('../contract/verify.js').verifyMethods;

export function verifyHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  return {
    verifyAgent: (input) => verifyAgent(ctx, input),
  };
}
