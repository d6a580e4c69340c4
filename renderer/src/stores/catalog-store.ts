import { create } from 'zustand';
import type { Catalog, CatalogEntry } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

interface CatalogState {
  catalog: Catalog | null;
  byId: Map<string, CatalogEntry>;
  loading: boolean;
  error: string | null;
  /** Entry id shown in the drawer. */
  openId: string | null;
  /** Drawer tab to show first (e.g. `security` when coming from an approval prompt). */
  openTab: string;
  /** Opened over a dialog (the skill picker, the import summary): the drawer stacks above it. */
  openOver: boolean;
  /** Bumped on `approval-changed`: the drawer's security panel re-reads trust. */
  trustRev: number;
  bumpTrust(): void;
  load(): Promise<void>;
  open(id: string | null, tab?: string, over?: boolean): void;
}

let inflight: Promise<void> | null = null;
let again = false;

export const useCatalog = create<CatalogState>((set) => ({
  catalog: null,
  byId: new Map(),
  loading: false,
  error: null,
  openId: null,
  openTab: 'overview',
  openOver: false,
  trustRev: 0,
  bumpTrust() {
    set((s) => ({ trustRev: s.trustRev + 1 }));
  },
  load() {
    // Coalesce bursts of catalog-changed events: one request in flight, at most one queued.
    if (inflight) {
      again = true;
      return inflight;
    }
    set({ loading: true });
    inflight = (async () => {
      do {
        again = false;
        try {
          const catalog = await client().api.listCatalog({});
          set({ catalog, byId: new Map(catalog.entries.map((e) => [e.id, e])), error: null });
        } catch (err) {
          set({ error: errorText(err) });
        }
      } while (again);
      set({ loading: false });
      inflight = null;
    })();
    return inflight;
  },
  open(id, tab = 'overview', over = false) {
    set({ openId: id, openTab: tab, openOver: over });
  },
}));

/**
 * The catalog entry for a skill the engine named: by folder (a refusal's `dir`, which may be the
 * real path behind a link), else the effective (unshadowed) entry with that name.
 */
export function findEntry(catalog: Catalog | null, ref: { name: string; dir?: string }): CatalogEntry | undefined {
  const entries = catalog?.entries ?? [];
  return (
    (ref.dir ? entries.find((e) => e.provenance.dir === ref.dir || e.provenance.realPath === ref.dir) : undefined) ??
    entries.find((e) => e.name === ref.name && !e.shadowedBy)
  );
}
