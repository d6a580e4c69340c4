import fs from 'node:fs';
import path from 'node:path';
import { SettingsSchema, type Settings } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';

// INTERIM: plain JSON read/write. The store work (src/store) replaces this with the atomic,
// versioned, validated store; keep the public shape (get/update) unchanged.
export class SettingsService {
  private file: string;
  constructor(private ctx: ServiceContext) {
    this.file = path.join(ctx.paths.home, 'settings.json');
  }

  get(): Settings {
    try {
      return SettingsSchema.parse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
    } catch {
      return SettingsSchema.parse({});
    }
  }

  update(patch: Partial<Settings>): Settings {
    const next = SettingsSchema.parse({ ...this.get(), ...patch });
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(this.file, JSON.stringify(next, null, 2));
    this.ctx.events.emit({ type: 'settings-changed', settings: next });
    return next;
  }
}

export function getSettings(ctx: ServiceContext): SettingsService {
  return ctx.use('settings', () => new SettingsService(ctx));
}
