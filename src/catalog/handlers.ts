import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';

type Keys = keyof typeof import('../contract/skills.js').skillMethods;

export function catalogHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  void ctx;
  throw new Error('catalog handlers: not built yet');
}
