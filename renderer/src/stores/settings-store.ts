import { create } from 'zustand';
import type { CustomAgent, MethodOutput, Settings } from '../../../src/contract/index';
import { client } from '../client-port';
import { useAgents } from './agents-store';
import { errorText } from './errors';

interface SettingsState {
  settings: Settings | null;
  error: string | null;
  load(): Promise<void>;
  update(patch: Partial<Settings>): Promise<Settings | null>;
  /** From a pushed `settings-changed` event (another window or the CLI changed them). */
  receive(settings: Settings): void;
  /**
   * Change the custom agents: the engine's current list is read first and only `customAgents` is
   * sent, so an agent added meanwhile elsewhere (the CLI, another window) is kept rather than
   * overwritten by a stale copy. Throws the engine's refusal (its `details.field` names the field).
   */
  saveCustomAgents(change: (list: CustomAgent[]) => CustomAgent[]): Promise<void>;
  /** The files that decide trust (approvals.json, settings.json), each as SkillDock last wrote it or changed. */
  trustFiles(): Promise<MethodOutput<'listTrustFiles'>>;
  /** Trust a changed file as it is now (the user read it). */
  confirmTrustFile(file: MethodOutput<'listTrustFiles'>[number]['file']): Promise<void>;
}

// Every save pushes settings-changed with the whole settings as saved then, so the last event is the
// engine's current state. An answer to a request sent before an event arrived may be older than that
// event (answers and events travel apart): it is dropped, and the events have the last word.
let pushed = 0;
const fresh = (seen: number) => pushed === seen;

export const useSettings = create<SettingsState>((set) => ({
  settings: null,
  error: null,
  trustFiles: () => client().api.listTrustFiles({}),
  async confirmTrustFile(file) {
    await client().api.confirmTrustFile({ file });
  },
  async load() {
    const seen = pushed;
    try {
      const settings = await client().api.getSettings({});
      if (fresh(seen)) set({ settings, error: null });
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  async update(patch) {
    try {
      // Only the fields that changed: the engine merges them into what is on disk now, so a value
      // another process saved meanwhile (the CLI adding an agent) is not overwritten by our copy.
      const seen = pushed;
      const settings = await client().api.updateSettings(patch);
      set(fresh(seen) ? { settings, error: null } : { error: null });
      return settings;
    } catch (err) {
      set({ error: errorText(err) });
      return null;
    }
  },
  receive(settings) {
    pushed++;
    set({ settings });
  },
  async saveCustomAgents(change) {
    const api = client().api;
    const { customAgents } = await api.getSettings({});
    const seen = pushed;
    const settings = await api.updateSettings({ customAgents: change(customAgents) });
    if (fresh(seen)) set({ settings });
    // Assistants and launch pick agents from the registry cache: let them see the change.
    void useAgents.getState().loadRegistry();
  },
}));
