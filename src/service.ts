import { methods, isMethodName, type Api, type MethodName, type Result } from './contract/index.js';
import { EventBus, defaultPaths, type EnginePaths, type EventListener } from './context.js';
import { SkillDockError, toErrorInfo } from './errors.js';
import { createServiceContext, type ServiceContext } from './service-context.js';
import { catalogHandlers } from './catalog/handlers.js';
import { settingsHandlers } from './settings/handlers.js';
import { libraryHandlers } from './library/handlers.js';
import { assistantsHandlers } from './assistants/handlers.js';
import { launchHandlers } from './workspaces/handlers.js';
import { securityHandlers } from './security/handlers.js';

export interface ServiceOptions {
  paths?: Partial<EnginePaths>;
}

/**
 * The engine as every front door sees it: one function per contract method, plus events.
 * `call` parses an untrusted payload with the contract's schema first and never throws.
 */
export class SkillDockService {
  readonly api: Api;
  readonly ctx: ServiceContext;

  constructor(options: ServiceOptions = {}) {
    const paths = { ...defaultPaths(), ...options.paths };
    this.ctx = createServiceContext(paths, new EventBus());
    this.api = {
      ...settingsHandlers(this.ctx),
      ...catalogHandlers(this.ctx),
      ...libraryHandlers(this.ctx),
      ...assistantsHandlers(this.ctx),
      ...launchHandlers(this.ctx),
      ...securityHandlers(this.ctx),
    } satisfies Api;
  }

  get paths(): EnginePaths {
    return this.ctx.paths;
  }

  on(listener: EventListener): () => void {
    return this.ctx.events.on(listener);
  }

  /** Validate `input` against the method's schema, run it, and return a Result. */
  async call(method: string, input: unknown): Promise<Result<unknown>> {
    try {
      if (!isMethodName(method)) throw new SkillDockError('bad-request', `Unknown method: ${method}`);
      const schema = methods[method].input;
      const parsed = schema.safeParse(input ?? {});
      if (!parsed.success) {
        throw new SkillDockError('bad-request', `Invalid payload for ${method}: ${parsed.error.message}`);
      }
      const fn = this.api[method] as (i: unknown) => Promise<unknown>;
      return { ok: true, value: await fn(parsed.data) };
    } catch (err) {
      return { ok: false, error: toErrorInfo(err) };
    }
  }

  async close(): Promise<void> {
    await this.ctx.close();
  }
}

export function createService(options: ServiceOptions = {}): SkillDockService {
  return new SkillDockService(options);
}

export type { MethodName };
