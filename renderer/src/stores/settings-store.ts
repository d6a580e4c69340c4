import { create } from 'zustand';
import type { Language, Settings } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

interface SettingsState {
  settings: Settings | null;
  error: string | null;
  load(): Promise<void>;
  update(patch: Partial<Settings>): Promise<Settings | null>;
  /** From a pushed `settings-changed` event (another window or the CLI changed them). */
  receive(settings: Settings): void;
}

export const useSettings = create<SettingsState>((set) => ({
  settings: null,
  error: null,
  async load() {
    try {
      set({ settings: await client().api.getSettings({}), error: null });
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  async update(patch) {
    try {
      // Sent whole: the contract's patch schema (`SettingsSchema.partial()`) fills zod defaults
      // into absent keys, so a bare `{ theme }` would reset the language and everything else.
      const current = useSettings.getState().settings;
      const settings = await client().api.updateSettings(current ? { ...current, ...patch } : patch);
      set({ settings, error: null });
      return settings;
    } catch (err) {
      set({ error: errorText(err) });
      return null;
    }
  },
  receive(settings) {
    set({ settings });
  },
}));

export type { Language };
