import { create } from 'zustand';
import type { UsageSummary } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';
import { coalesced } from './coalesce';

// The usage ledger (issue 30): which skills agents really loaded. Read when a page that shows it
// mounts; scanning the agents' own logs and clearing come from Settings.

/** Uses of one skill in 90 days: per agent, and in all; null when nothing is known. */
export interface SkillUsage {
  d90: number;
  lastUsed: string | null;
  byAgent: Record<string, number>;
}

interface UsageState {
  summary: UsageSummary | null;
  /** skill name -> its uses (every agent). */
  bySkill: Map<string, SkillUsage>;
  error: string | null;
  busy: boolean;
  load(): Promise<void>;
  scan(): Promise<void>;
  clear(): Promise<void>;
}

function index(s: UsageSummary): Map<string, SkillUsage> {
  const out = new Map<string, SkillUsage>();
  for (const r of s.rows) {
    const u = out.get(r.skill) ?? { d90: 0, lastUsed: null, byAgent: {} };
    u.d90 += r.counts.d90;
    u.byAgent[r.agent] = (u.byAgent[r.agent] ?? 0) + r.counts.d90;
    if (r.lastUsed && (!u.lastUsed || r.lastUsed > u.lastUsed)) u.lastUsed = r.lastUsed;
    out.set(r.skill, u);
  }
  return out;
}

export const useUsage = create<UsageState>((set, get) => ({
  summary: null,
  bySkill: new Map(),
  error: null,
  busy: false,
  load: coalesced(async () => {
    try {
      const summary = await client().api.usageSummary({});
      set({ summary, bySkill: index(summary), error: null });
    } catch (err) {
      set({ error: errorText(err) });
    }
  }),
  async scan() {
    set({ busy: true });
    try {
      await client().api.usageScan({});
      await get().load();
    } catch (err) {
      set({ error: errorText(err) });
    } finally {
      set({ busy: false });
    }
  },
  async clear() {
    set({ busy: true });
    try {
      await client().api.usageClear({});
      await get().load();
    } catch (err) {
      set({ error: errorText(err) });
    } finally {
      set({ busy: false });
    }
  },
}));
