import { create } from 'zustand';
import type { Settings } from '../../../src/contract/index';
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
      // Only the fields that changed: the engine merges them into what is on disk now, so a value
      // another process saved meanwhile (the CLI adding an agent) is not overwritten by our copy.
      const settings = await client().api.updateSettings(patch);
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
