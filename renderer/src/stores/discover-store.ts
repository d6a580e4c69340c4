import { create } from 'zustand';
import type { CatalogKind, CatalogStatus, Preview, RefreshResult, Risk, SearchResult } from '../../../src/contract/index';
import { client } from '../client-port';

/**
 * The Discover page's cache (issue 29): the subscribed catalogs, the last search and its filters,
 * and the skill being previewed. The engine searches its indexes offline; a search is asked at
 * every keystroke, and an answer that arrives after a newer one was asked is dropped.
 */
export interface DiscoverFilters {
  catalog: string | null;
  agent: string | null;
  scripts: boolean | null;
  maxRisk: Risk | null;
  installed: boolean | null;
}

interface DiscoverState {
  catalogs: CatalogStatus[] | null;
  query: string;
  filters: DiscoverFilters;
  results: SearchResult[] | null;
  total: number;
  problems: { catalog: string; message: string }[];
  preview: Preview | null;
  previewing: string | null;
  busy: Record<string, true>;
  lastRefresh: RefreshResult[];
  error: unknown;
  loadCatalogs(): Promise<void>;
  search(query?: string, filters?: Partial<DiscoverFilters>): Promise<void>;
  open(r: Pick<SearchResult, 'catalog' | 'path' | 'repo'> | null): Promise<void>;
  install(): Promise<void>;
  refresh(ids?: string[]): Promise<void>;
  addCatalog(url: string, kind: CatalogKind): Promise<void>;
  removeCatalog(id: string): Promise<void>;
  setEnabled(id: string, enabled: boolean): Promise<void>;
  /** The library changed (an install, a delete elsewhere): installed marks may have moved. */
  libraryChanged(): void;
}

let asked = 0;
export const resultKey = (r: Pick<SearchResult, 'catalog' | 'path' | 'repo'>) => `${r.catalog}:${r.repo ? `${r.repo}:` : ''}${r.path}`;

export const useDiscover = create<DiscoverState>((set, get) => {
  const guarded = async (key: string, fn: () => Promise<void>) => {
    set((s) => ({ busy: { ...s.busy, [key]: true }, error: null }));
    try {
      await fn();
    } catch (err) {
      set({ error: err });
    } finally {
      set((s) => {
        const busy = { ...s.busy };
        delete busy[key];
        return { busy };
      });
    }
  };
  return {
    catalogs: null,
    query: '',
    filters: { catalog: null, agent: null, scripts: null, maxRisk: null, installed: null },
    results: null,
    total: 0,
    problems: [],
    preview: null,
    previewing: null,
    busy: {},
    lastRefresh: [],
    error: null,
    async loadCatalogs() {
      const { catalogs } = await client().api.listCatalogs({});
      set({ catalogs });
    },
    async search(query, filters) {
      const q = query ?? get().query;
      const f = { ...get().filters, ...filters };
      set({ query: q, filters: f });
      const mine = ++asked;
      try {
        const r = await client().api.searchSkills({
          query: q,
          ...(f.catalog ? { catalogs: [f.catalog] } : {}),
          ...(f.agent ? { agent: f.agent } : {}),
          ...(f.scripts !== null ? { scripts: f.scripts } : {}),
          ...(f.maxRisk ? { maxRisk: f.maxRisk } : {}),
          ...(f.installed !== null ? { installed: f.installed } : {}),
          limit: 100,
        });
        if (mine === asked) set({ results: r.results, total: r.total, problems: r.problems, error: null });
      } catch (err) {
        if (mine === asked) set({ error: err });
      }
    },
    async open(r) {
      if (!r) return set({ preview: null, previewing: null });
      set({ previewing: resultKey(r), preview: null });
      await guarded('preview', async () => {
        const p = await client().api.previewCatalogSkill({ catalog: r.catalog, path: r.path, ...(r.repo ? { repo: r.repo } : {}) });
        if (get().previewing === resultKey(r)) set({ preview: p });
      });
    },
    async install() {
      const p = get().preview;
      if (!p) return;
      await guarded('install', async () => {
        const s = p.skill;
        await client().api.installCatalogSkill({
          catalog: s.catalog,
          path: s.path,
          ...(s.repo ? { repo: s.repo } : {}),
          ...(s.digest ? { digest: s.digest } : {}),
          ...(p.source.commit ? { commit: p.source.commit } : {}),
        });
        const again = await client().api.previewCatalogSkill({ catalog: s.catalog, path: s.path, ...(s.repo ? { repo: s.repo } : {}) });
        set({ preview: again });
        await get().search();
      });
    },
    async refresh(ids) {
      await guarded(ids?.length === 1 ? `refresh:${ids[0]}` : 'refresh', async () => {
        const { results } = await client().api.refreshCatalogs({ ...(ids ? { ids } : {}), force: true });
        set({ lastRefresh: results });
        await get().loadCatalogs();
        await get().search();
      });
    },
    async addCatalog(url, kind) {
      await guarded('add', async () => {
        await client().api.addCatalog({ url, kind });
        await get().loadCatalogs();
      });
    },
    async removeCatalog(id) {
      await guarded(`remove:${id}`, async () => {
        await client().api.removeCatalog({ id });
        await get().loadCatalogs();
        await get().search();
      });
    },
    async setEnabled(id, enabled) {
      await guarded(`enable:${id}`, async () => {
        await client().api.setCatalogEnabled({ id, enabled });
        await get().loadCatalogs();
        await get().search();
      });
    },
    libraryChanged() {
      if (get().results !== null) void get().search();
    },
  };
});
