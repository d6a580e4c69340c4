import './schemas.js'; // every file schema, by name (src/store/lazy-schema.ts)
import { methods, isMethodName, type Api, type MethodName, type Result } from './contract/index.js';
import { EventBus, defaultPaths, type EnginePaths, type EventListener } from './context.js';
import { fail, invalidInputError, toErrorInfo } from './errors.js';
import { createServiceContext, type ServiceContext } from './service-context.js';
import { catalogHandlers } from './catalog/handlers.js';
import { settingsHandlers } from './settings/handlers.js';
import { libraryHandlers } from './library/handlers.js';
import { editorHandlers } from './editor/editor-handlers.js';
import { assistantsHandlers } from './assistants/handlers.js';
import { launchHandlers } from './workspaces/handlers.js';
import { securityHandlers } from './security/handlers.js';
import { lockAwareImports, sourcesHandlers } from './sources/handlers.js';
import { originHandlers } from './sources/origin-handlers.js';
import { projectHandlers } from './deploy/project-handlers.js';
import { mcpHandlers } from './mcp/handlers.js';
import { discoverHandlers } from './discover/handlers.js';
import { getDiscover } from './discover/service.js';
import { deployHandlers } from './deploy/handlers.js';
import { verifyHandlers } from './verify/handlers.js';
import { usageHandlers } from './usage/handlers.js';
import { getCatalog } from './catalog/index.js';
import { startLiveSync } from './service-live.js';
import { getDeploy } from './deploy/service.js';
import { syncHandlers } from './sync/handlers.js';

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
  private liveSync = false;

  constructor(options: ServiceOptions = {}) {
    const paths = { ...defaultPaths(), ...options.paths };
    this.ctx = createServiceContext(paths, new EventBus());
    const library = libraryHandlers(this.ctx);
    this.api = {
      ...settingsHandlers(this.ctx),
      ...catalogHandlers(this.ctx),
      ...library,
      // importPaths and adoptSkills also read the reference skills CLI's lock files (src/sources/lock.ts)
      ...lockAwareImports(this.ctx, library),
      ...assistantsHandlers(this.ctx),
      ...launchHandlers(this.ctx),
      ...securityHandlers(this.ctx),
      ...editorHandlers(this.ctx),
      ...sourcesHandlers(this.ctx),
      ...originHandlers(this.ctx),
      ...projectHandlers(this.ctx),
      ...mcpHandlers(this.ctx),
      ...discoverHandlers(this.ctx),
      ...deployHandlers(this.ctx),
      ...verifyHandlers(this.ctx),
      ...syncHandlers(this.ctx),
      ...usageHandlers(this.ctx),
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
      if (!isMethodName(method)) throw fail('bad-request', 'common.unknown-method', { method });
      const schema = methods[method].input;
      const parsed = schema.safeParse(input ?? {});
      if (!parsed.success) {
        throw invalidInputError(parsed.error.issues, input ?? {}, { method });
      }
      const fn = this.api[method] as (i: unknown) => Promise<unknown>;
      return { ok: true, value: await fn(parsed.data) };
    } catch (err) {
      return { ok: false, error: toErrorInfo(err) };
    }
  }

  /**
   * For the long-lived front doors (the desktop app, `skilldock serve`): keep every root of the
   * default catalog watched, so launches and lists trust a fresh catalog instead of re-checking
   * every skill, and push what other processes change in the home (the CLI attaching a skill,
   * deleting or undoing, approving: src/service-live.ts) as the usual events. Resolves once watching.
   */
  async live(): Promise<string[]> {
    if (!this.liveSync) {
      startLiveSync(this.ctx);
      this.liveSync = true;
      // agents' folders, for the Deployments page's live drift
      getDeploy(this.ctx).watch();
    }
    // Catalogs older than a day are refreshed in the background (src/discover/service.ts).
    getDiscover(this.ctx).startBackground();
    return getCatalog(this.ctx).watch({});
  }

  async close(): Promise<void> {
    await this.ctx.close();
  }
}

export function createService(options: ServiceOptions = {}): SkillDockService {
  return new SkillDockService(options);
}

export type { MethodName };
