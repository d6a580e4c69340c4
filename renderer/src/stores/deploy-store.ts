import { create } from 'zustand';
import type { DeployMode, DeployResult, DeployStatus, FileChoice, MessageRef, MethodOutput } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';
import { coalesced } from './coalesce';

// Deployments (the Deployments page): the engine's status of every agent folder and the skill ×
// agent matrix, read when the page mounts and again on every `deploy-changed` and
// `library-changed` event while it is shown (sync.ts routes them here). The engine watches the
// agents' folders, so a change made on disk by anyone arrives as an event within a second.

export type DeployDiff = MethodOutput<'deployDiff'>;
export type AdoptEditResult = MethodOutput<'deployAdoptEdit'>;

export interface SetRequest {
  skills: string[];
  agents?: string[];
  allAgents?: boolean;
  mode: DeployMode | null;
  confirmed?: boolean;
  take?: string[];
}

interface DeployState {
  status: DeployStatus | null;
  error: string | null;
  /** Mode new switches use. */
  mode: DeployMode;
  watching: number;
  load(): Promise<void>;
  /** Read now and on every change until the returned function is called. */
  watch(): () => void;
  /** From the engine's events: read again if shown. */
  changed(): void;
  setMode(mode: DeployMode): void;
  set(req: SetRequest): Promise<DeployResult>;
  repair(choices?: { restore?: string[]; take?: string[] }): Promise<DeployResult>;
  diff(path: string): Promise<DeployDiff>;
  adoptEdit(path: string, resolutions?: Record<string, FileChoice>): Promise<AdoptEditResult>;
}

export const useDeploy = create<DeployState>((set, get) => ({
  status: null,
  error: null,
  mode: 'link',
  watching: 0,
  load: coalesced(async () => {
    try {
      set({ status: await client().api.deployStatus({}), error: null });
    } catch (err) {
      set({ error: errorText(err) });
    }
  }),
  watch() {
    set((s) => ({ watching: s.watching + 1 }));
    void get().load();
    return () => set((s) => ({ watching: s.watching - 1 }));
  },
  changed() {
    if (get().watching > 0) void get().load();
  },
  setMode(mode) {
    set({ mode });
  },
  async set(req) {
    const r = await client().api.deploySet({
      skills: req.skills,
      agents: req.agents ?? [],
      allAgents: !!req.allAgents,
      mode: req.mode,
      confirmed: !!req.confirmed,
      take: req.take ?? [],
    });
    await get().load();
    return r;
  },
  async repair(choices = {}) {
    const r = await client().api.deployRepair({ restore: choices.restore ?? [], take: choices.take ?? [] });
    await get().load();
    return r;
  },
  diff(path) {
    return client().api.deployDiff({ path });
  },
  async adoptEdit(path, resolutions) {
    const r = await client().api.deployAdoptEdit({ path, ...(resolutions ? { resolutions } : {}) });
    if (r.journalId) await get().load();
    return r;
  },
}));

/** Agent ids inside an engine message's `agents` parameter, as the names the window shows. */
export function withAgentNames(msg: MessageRef, names: Record<string, string>): MessageRef {
  const agents = msg.params?.agents;
  if (!Array.isArray(agents)) return msg;
  return { ...msg, params: { ...msg.params, agents: agents.map((a) => (typeof a === 'string' ? (names[a] ?? a) : a)) } };
}
