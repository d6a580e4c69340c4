import { create } from 'zustand';
import type { CleanResult, LaunchInput, LaunchResult, WorkspaceInfo } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorCode, errorText } from './errors';

export type OnScriptsChanged = NonNullable<LaunchInput['onScriptsChanged']>;

/** A launch the engine refused because attached skills' scripts are not (or no longer) approved. */
export interface LaunchRefusal {
  assistant: string;
  workspace?: string;
  /** `dir`: the folder the engine judged, so the right copy opens when names are shadowed. */
  skills: Array<{ name: string; status: string; dir?: string }>;
}

function refusalOf(err: unknown, assistant: string, workspace?: string): LaunchRefusal | null {
  if (errorCode(err) !== 'refused') return null;
  const skills = (err as { details?: { skills?: unknown } }).details?.skills;
  if (!Array.isArray(skills) || !skills.length) return null;
  return {
    assistant,
    ...(workspace ? { workspace } : {}),
    skills: skills.map((s: { name?: unknown; status?: unknown; dir?: unknown }) => ({
      name: String(s.name),
      status: String(s.status),
      ...(typeof s.dir === 'string' ? { dir: s.dir } : {}),
    })),
  };
}

interface LaunchState {
  result: LaunchResult | null;
  launching: boolean;
  error: string | null;
  refusal: LaunchRefusal | null;
  workspaces: WorkspaceInfo[];
  lastClean: CleanResult | null;
  launch(assistant: string, workspace?: string, onScriptsChanged?: OnScriptsChanged): Promise<LaunchResult | null>;
  loadWorkspaces(): Promise<void>;
  clean(): Promise<CleanResult | null>;
  clearError(): void;
  /**
   * Trust changed (an approval here, in the drawer, or by the CLI): ask the engine again about each
   * refused skill, drop those that no longer need approval, and the banner with the last of them.
   */
  recheckRefusal(): Promise<void>;
  /** Open the launched conversation in a terminal window (throws what the engine refused). */
  openInTerminal(conversationId: string): Promise<void>;
}

export const useLaunch = create<LaunchState>((set, get) => ({
  result: null,
  launching: false,
  error: null,
  refusal: null,
  workspaces: [],
  lastClean: null,
  async launch(assistant, workspace, onScriptsChanged) {
    // A new launch replaces the last one's card, so a failure is never shown above an old success.
    set({ launching: true, error: null, refusal: null, result: null });
    try {
      const result = await client().api.launchAssistant({
        assistant,
        workspace: workspace || undefined,
        ...(onScriptsChanged ? { onScriptsChanged } : {}),
      });
      set({ result, launching: false });
      void get().loadWorkspaces();
      return result;
    } catch (err) {
      const refusal = refusalOf(err, assistant, workspace || undefined);
      set(refusal ? { refusal, launching: false } : { error: errorText(err), launching: false });
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
    set({ error: null, refusal: null });
  },
  async recheckRefusal() {
    const refusal = get().refusal;
    if (!refusal) return;
    const still = await Promise.all(
      refusal.skills.map(async (s) => {
        try {
          const trust = await client().api.getSkillTrust(s.dir ? { dir: s.dir } : { name: s.name });
          return trust.needsApproval ? { ...s, status: trust.status } : null;
        } catch {
          return s; // gone or unreadable: the engine will say so at the next launch; keep it named
        }
      }),
    );
    // Another launch or a dismissal may have replaced the banner while the engine answered.
    if (get().refusal !== refusal) return;
    const skills = still.filter((s): s is NonNullable<typeof s> => s !== null);
    set({ refusal: skills.length ? { ...refusal, skills } : null });
  },
  async openInTerminal(conversationId) {
    await client().api.openInTerminal({ conversationId });
  },
}));

/** A POSIX-shell rendering of argv for copying into a terminal. */
export function shellJoin(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
