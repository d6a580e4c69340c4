import { create } from 'zustand';
import type { CleanResult, LaunchResult, WorkspaceInfo } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

interface LaunchState {
  result: LaunchResult | null;
  launching: boolean;
  error: string | null;
  workspaces: WorkspaceInfo[];
  lastClean: CleanResult | null;
  launch(assistant: string, workspace?: string): Promise<LaunchResult | null>;
  loadWorkspaces(): Promise<void>;
  clean(): Promise<CleanResult | null>;
  clearError(): void;
}

export const useLaunch = create<LaunchState>((set, get) => ({
  result: null,
  launching: false,
  error: null,
  workspaces: [],
  lastClean: null,
  async launch(assistant, workspace) {
    set({ launching: true, error: null });
    try {
      const result = await client().api.launchAssistant({ assistant, workspace: workspace || undefined });
      set({ result, launching: false });
      void get().loadWorkspaces();
      return result;
    } catch (err) {
      set({ error: errorText(err), launching: false });
      return null;
    }
  },
  async loadWorkspaces() {
    try {
      const workspaces = await client().api.listWorkspaces({});
      // Newest first: the conversation just launched is on top.
      workspaces.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      set({ workspaces });
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
  async clean() {
    try {
      const lastClean = await client().api.cleanWorkspaces({});
      set({ lastClean });
      await get().loadWorkspaces();
      return lastClean;
    } catch (err) {
      set({ error: errorText(err) });
      return null;
    }
  },
  clearError() {
    set({ error: null });
  },
}));

/** A POSIX-shell rendering of argv for copying into a terminal. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
