import { create } from 'zustand';
import type { AddFromSourceOutput, CheckResult, FileChoice, SkillOrigin, UpdateResult } from '../../../src/contract/index';
import { operationWhat } from '../../../src/contract/operation-what';
import { client } from '../client-port';
import { useImport } from './import-store';

/**
 * Skills from sources (issue 15): provenance, the last check and the last update per skill. The
 * engine owns all of it; this is a cache the Updates page and the nav badge read.
 */
interface SourcesState {
  provenance: Record<string, SkillOrigin> | null;
  /** Last check per skill. */
  checks: Record<string, CheckResult>;
  /** Skills with an update available after the last check (the nav badge). */
  updates: number;
  checkedAt: number | null;
  checking: boolean;
  /** Skills being updated, pinned or unpinned right now ('*' = update all). */
  busy: Record<string, true>;
  /** Last update outcome per skill: a conflict carries its files for the resolve dialog. */
  outcomes: Record<string, UpdateResult>;
  /** Whatever the last call threw (worded by the page). */
  error: unknown;
  load(): Promise<void>;
  /** Read the records now and on every library change until the returned function is called (the Updates page). */
  watch(): () => void;
  /** From the engine's `library-changed` event: another door or page may add, update or delete skills. */
  libraryChanged(): void;
  /** Look into a source without installing anything: the skills found there, with lint and security summaries. */
  preview(source: string, ref?: string): Promise<AddFromSourceOutput>;
  check(names?: string[]): Promise<void>;
  /** `names` = null: every skill from a source. */
  update(names: string[] | null, resolutions?: Record<string, Record<string, FileChoice>>): Promise<void>;
  pin(name: string): Promise<void>;
  unpin(name: string): Promise<void>;
}

/** How many components show the records (not state: nothing renders from it). */
let watchers = 0;

const countUpdates = (checks: Record<string, CheckResult>) => Object.values(checks).filter((c) => c.status === 'update-available').length;

export const useSources = create<SourcesState>((set, get) => {
  const mark = (keys: string[], on: boolean) =>
    set((s) => {
      const busy = { ...s.busy };
      for (const k of keys) {
        if (on) busy[k] = true;
        else delete busy[k];
      }
      return { busy };
    });
  /** Run `fn` with `keys` marked busy; a failure lands in `error`. */
  const guarded = async (keys: string[], fn: () => Promise<void>) => {
    mark(keys, true);
    set({ error: null });
    try {
      await fn();
    } catch (err) {
      set({ error: err });
    } finally {
      mark(keys, false);
    }
  };
  /** Pin or unpin, then show the record (and the check, when there was one) as they now are. */
  const pinning = (name: string, call: () => Promise<unknown>) =>
    guarded([name], async () => {
      await call();
      await get().load();
      if (get().checks[name]) await get().check([name]);
    });
  return {
    provenance: null,
    checks: {},
    updates: 0,
    checkedAt: null,
    checking: false,
    busy: {},
    outcomes: {},
    error: null,
    async load() {
      try {
        const { skills } = await client().api.listProvenance({});
        set({ provenance: skills });
      } catch (err) {
        set({ error: err });
      }
    },
    watch() {
      watchers++;
      void get().load();
      return () => {
        watchers--;
      };
    },
    libraryChanged() {
      if (watchers > 0) void get().load();
    },
    preview: (source, ref) => client().api.addFromSource({ source, ...(ref ? { ref } : {}), preview: true }),
    async check(names) {
      set({ checking: true, error: null });
      try {
        const { results } = await client().api.checkSources(names?.length ? { names } : {});
        const checks = names?.length ? { ...get().checks } : {};
        for (const r of results) checks[r.skill] = r;
        set({ checks, updates: countUpdates(checks), checkedAt: Date.now() });
      } catch (err) {
        set({ error: err });
      } finally {
        set({ checking: false });
      }
    },
    async update(names, resolutions) {
      await guarded(names ?? ['*'], async () => {
        const out = await client().api.updateSkills({
          ...(names ? { names } : { all: true }),
          ...(resolutions ? { resolutions } : {}),
        });
        const outcomes = { ...get().outcomes };
        for (const r of out.results) outcomes[r.skill] = r;
        set({ outcomes });
        const changed = out.results.filter((r) => r.status === 'updated').map((r) => r.skill);
        // The import panel's toast offers to undo this update run, by its journal id.
        if (out.journalId) useImport.setState({ lastOp: { id: out.journalId, what: operationWhat({ op: 'update', skills: changed }) } });
        await get().load();
        if (changed.length) await get().check(changed);
      });
    },
    pin: (name) => pinning(name, () => client().api.pinSkill({ name })),
    unpin: (name) => pinning(name, () => client().api.unpinSkill({ name })),
  };
});
