import { create } from 'zustand';
import type { SkillRisk } from '../../../src/contract/index';
import { client } from '../client-port';
import { useCatalog } from './catalog-store';
import { coalesced } from './coalesce';

// What the engine's security scan found per catalog entry (listSkillRisks), for the list's badge
// and filters and the approval prompt. Loaded after the catalog, so the list paints first; kept
// fresh by following the catalog (every catalog-changed event reloads it).

interface RiskState {
  /** Entry id → what the scan found; entries without findings are absent. */
  byId: ReadonlyMap<string, SkillRisk>;
  /** The catalog generation `byId` answers for; null before the first answer. */
  generation: number | null;
  load(): Promise<void>;
}

export const useRisks = create<RiskState>((set) => ({
  byId: new Map(),
  generation: null,
  load: coalesced(async () => {
    try {
      const r = await client().api.listSkillRisks({});
      set({ byId: new Map(r.skills.map((s) => [s.entryId, s])), generation: r.generation });
    } catch {
      // The list still works without badges; the drawer's security tab says what failed.
    }
  }),
}));

const first = useCatalog.getState().catalog;
if (first) void useRisks.getState().load();
useCatalog.subscribe((s, prev) => {
  if (s.catalog && s.catalog !== prev.catalog && s.catalog.generation !== useRisks.getState().generation) void useRisks.getState().load();
});
