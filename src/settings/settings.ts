import type { Settings } from '../contract/settings.js';
import { defaultSettings } from '../contract/settings-defaults.js';
import { SchemaNotLoaded, schemaNamed } from '../store/lazy-schema.js';
import type { ServiceContext } from '../service-context.js';
import { openStore, type JsonStore } from '../store/index.js';
import { agentConfigFiles, loadRegistry } from '../agents/registry.js';
import { validateCustomAgents } from './custom-agents.js';
import { TrustSeal, type SealStatus } from '../store/trust-seal.js';

// settings.json through the versioned, validated, atomic store. Version 0 is the interim plain-JSON
// file written before the store existed; it holds the same fields, so it passes through unchanged.
export const SETTINGS_VERSION = 1;

export class SettingsService {
  private store: JsonStore<Settings>;
  /** What SkillDock last wrote to settings.json (src/store/trust-seal.ts). */
  private readonly seal: TrustSeal;
  constructor(private ctx: ServiceContext) {
    this.seal = new TrustSeal(ctx.paths.home);
    this.store = openStore<Settings>(ctx, 'settings.json', {
      schema: 'settings',
      version: SETTINGS_VERSION,
      migrations: { 0: (old) => old },
      defaults: defaultSettings,
    });
  }

  get(): Settings {
    return this.store.read();
  }

  update(patch: Partial<Settings>): Settings {
    const next = this.store.update((current) => {
      // Checked here, the one write path, so the CLI, the desktop app and the browser all get it;
      // under the store's lock, against the list as it is on disk.
      const customAgents =
        patch.customAgents &&
        validateCustomAgents(
          patch.customAgents,
          shippedIds(this.ctx),
          current.customAgents,
          agentConfigFiles(loadRegistry(this.ctx.paths.resourcesDir).agents),
        );
      return settingsSchema().parse(customAgents ? { ...current, ...patch, customAgents } : { ...current, ...patch });
    });
    this.seal.seal('settings.json');
    this.ctx.events.emit({ type: 'settings-changed', settings: next });
    return next;
  }

  /** Whether settings.json holds what SkillDock last wrote. */
  sealStatus(): SealStatus {
    return this.seal.status('settings.json');
  }

  /** The user confirmed settings.json as it is. */
  confirmFile(): void {
    this.seal.seal('settings.json');
  }

  /**
   * The script policy that decides trust: from a settings.json changed by something other than
   * SkillDock, nothing looser than the default ("ask") is taken until the user confirms the file.
   */
  trustedScriptPolicy(): Settings['scriptPolicy'] {
    const policy = this.get().scriptPolicy;
    return policy === 'allowed' && this.sealStatus() === 'changed' ? defaultSettings().scriptPolicy : policy;
  }

  /** What `skilldock mcp` does with unapproved scripts; from a changed settings.json, the stricter `hide`. */
  trustedMcpUnapproved(): Settings['mcpUnapproved'] {
    const choice = this.get().mcpUnapproved;
    return this.sealStatus() === 'changed' ? 'hide' : choice;
  }
}

function settingsSchema() {
  const schema = schemaNamed<Settings>('settings');
  if (!schema) throw new SchemaNotLoaded('settings');
  return schema;
}

function shippedIds(ctx: ServiceContext): string[] {
  return loadRegistry(ctx.paths.resourcesDir).agents.map((a) => a.id);
}

export function getSettings(ctx: ServiceContext): SettingsService {
  return ctx.use('settings', () => new SettingsService(ctx));
}
