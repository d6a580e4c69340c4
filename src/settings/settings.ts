import { SettingsSchema, type Settings } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { openStore, type JsonStore } from '../store/index.js';

// settings.json through the versioned, validated, atomic store. Version 0 is the interim plain-JSON
// file written before the store existed; it holds the same fields, so it passes through unchanged.
export const SETTINGS_VERSION = 1;

export class SettingsService {
  private store: JsonStore<Settings>;
  constructor(private ctx: ServiceContext) {
    this.store = openStore<Settings>(ctx, 'settings.json', {
      schema: SettingsSchema,
      version: SETTINGS_VERSION,
      migrations: { 0: (old) => old },
      defaults: () => SettingsSchema.parse({}),
    });
  }

  get(): Settings {
    return this.store.read();
  }

  update(patch: Partial<Settings>): Settings {
    const next = this.store.update((current) => SettingsSchema.parse({ ...current, ...patch }));
    this.ctx.events.emit({ type: 'settings-changed', settings: next });
    return next;
  }
}

export function getSettings(ctx: ServiceContext): SettingsService {
  return ctx.use('settings', () => new SettingsService(ctx));
}
