import { create } from 'zustand';
import type {
  AdoptableSkill,
  ExportTarget,
  JournalEntry,
  LibraryMode,
  LibrarySkill,
  MethodOutput,
  SkillTemplate,
  TemplateWords,
  TrashEntry,
} from '../../../src/contract/index';
import { client } from '../client-port';
import { errorCode, errorText } from './errors';

/**
 * The user's own skills and what surrounds them (issue 14's Library page): the skills, the trash,
 * the journal and the skills offered for adoption. A cache of engine state: each list is read when
 * a component watching it mounts and again on every `library-changed` event while one watches it
 * (sync.ts routes the event here), so a list nobody shows is never read.
 */
export interface Loaded<T> {
  data: T | null;
  /** The last read's failure, worded for the user; the previous data stays shown. */
  error: string | null;
}

export interface LibraryLists {
  skills: Loaded<LibrarySkill[]>;
  trash: Loaded<TrashEntry[]>;
  history: Loaded<JournalEntry[]>;
  adoptable: Loaded<AdoptableSkill[]>;
}
export type LibraryList = keyof LibraryLists;

export type NameCheck = MethodOutput<'checkSkillName'>;

/** The targets of the open export dialog. */
export interface ExportView {
  name: string;
  targets: ExportTarget[] | null;
  error: string | null;
}

interface LibraryState extends LibraryLists {
  /** Bumped on every `library-changed` event (pages that keep their own view of the library follow it). */
  rev: number;
  exportView: ExportView | null;
  load(list: LibraryList): Promise<void>;
  /** Read `list` now and on every library change until the returned function is called. */
  watch(list: LibraryList): () => void;
  /** From the engine's `library-changed` event: the watched lists are read again. */
  libraryChanged(): void;
  /** Take skills from agents' folders into the library; the adoption list is read again. */
  adopt(items: AdoptableSkill[], mode: LibraryMode): Promise<MethodOutput<'adoptSkills'>>;
  /** Move a library skill (its folder name) to the trash. */
  deleteSkill(dirName: string): Promise<string>;
  /**
   * Restore a trashed skill as it was, under another name (`as`), or replacing the skill that now
   * holds its name (that one goes to the trash first, its own undo step). `taken` when the name is
   * held and neither was asked.
   */
  restore(entry: TrashEntry, how?: { replace?: boolean; as?: string }): Promise<{ restored: string; journalId: string } | { taken: true }>;
  /** Many library skills (folder names) to the trash in one operation: one journal entry, one undo. */
  deleteMany(names: string[]): Promise<MethodOutput<'deleteSkills'>>;
  /** Many trash entries back in one operation. */
  restoreMany(ids: string[]): Promise<MethodOutput<'restoreSkills'>>;
  /** Approve the scripts of many skills in one operation. */
  approveMany(names: string[]): Promise<MethodOutput<'approveSkills'>>;
  /** Pin many skills from sources at their installed commits in one operation. */
  pinMany(names: string[]): Promise<MethodOutput<'pinSkills'>>;
  /** Export many skills to one agent's user folder in one operation. */
  exportMany(names: string[], agent: string, mode: LibraryMode): Promise<MethodOutput<'exportSkills'>>;
  /** Undo one operation by its journal id (else the newest in effect); refused with the coded reason. */
  undo(id?: string): Promise<MethodOutput<'undo'>>;
  /** Redo an undone operation by its journal id (else the one undone last). */
  redo(id?: string): Promise<MethodOutput<'redo'>>;
  /** Open the export dialog's view of `name` (its folder name) and read where it could go (again, when open). */
  openExport(name: string): Promise<void>;
  closeExport(): void;
  /** Export to each agent in turn: what happened per agent (a result or the worded error), then the targets read again. */
  exportTo(
    name: string,
    agents: string[],
    mode: LibraryMode,
  ): Promise<Record<string, { ok: MethodOutput<'exportSkill'> } | { error: string }>>;
  /** The engine's opinion of a new skill's name (spec, catalog clashes, folder). */
  checkName(name: string): Promise<NameCheck>;
  createSkill(name: string, template: SkillTemplate, description?: string, words?: TemplateWords): Promise<string>;
}

const LISTS: LibraryList[] = ['skills', 'trash', 'history', 'adoptable'];
const empty = { data: null, error: null };

/** How each list is read from the engine. */
const READ: { [K in LibraryList]: () => Promise<NonNullable<LibraryLists[K]['data']>> } = {
  skills: async () => (await client().api.listLibrary({})).skills,
  trash: async () => (await client().api.listTrash({})).items,
  history: async () => (await client().api.journal({ limit: 100 })).entries,
  adoptable: async () => (await client().api.listAdoptable({})).skills,
};

/** How many components watch each list (not state: nothing renders from it). */
const watchers: Record<LibraryList, number> = { skills: 0, trash: 0, history: 0, adoptable: 0 };

export const useLibrary = create<LibraryState>((set, get) => ({
  skills: empty,
  trash: empty,
  history: empty,
  adoptable: empty,
  rev: 0,
  exportView: null,
  async load(list) {
    try {
      const data = await READ[list]();
      set({ [list]: { data, error: null } } as Partial<LibraryLists>);
    } catch (err) {
      set((s) => ({ [list]: { data: s[list].data, error: errorText(err) } }) as Partial<LibraryLists>);
    }
  },
  watch(list) {
    watchers[list]++;
    void get().load(list);
    return () => {
      watchers[list]--;
    };
  },
  libraryChanged() {
    set((s) => ({ rev: s.rev + 1 }));
    for (const list of LISTS) if (watchers[list] > 0) void get().load(list);
  },
  async adopt(items, mode) {
    const out = await client().api.adoptSkills({ items: items.map((s) => ({ path: s.path, mode })), onConflict: 'skip' });
    void get().load('adoptable');
    return out;
  },
  async deleteSkill(dirName) {
    const out = await client().api.deleteSkill({ name: dirName });
    void get().load('skills');
    return out.journalId;
  },
  async deleteMany(names) {
    const out = await client().api.deleteSkills({ names });
    void get().load('skills');
    return out;
  },
  async restoreMany(ids) {
    const out = await client().api.restoreSkills({ ids });
    void get().load('trash');
    return out;
  },
  approveMany: (names) => client().api.approveSkills({ names }),
  pinMany: (names) => client().api.pinSkills({ names }),
  exportMany: (names, agent, mode) => client().api.exportSkills({ names, agent, mode }),
  async restore(entry, how = {}) {
    let out: { name: string; journalId: string };
    try {
      if (how.replace) await client().api.deleteSkill({ name: entry.name });
      out = await client().api.restoreSkill({ id: entry.id, ...(how.as ? { as: how.as } : {}) });
    } catch (err) {
      if (!how.replace && !how.as && errorCode(err) === 'conflict') return { taken: true };
      throw err;
    }
    void get().load('trash');
    return { restored: out.name, journalId: out.journalId };
  },
  async undo(id) {
    try {
      return await client().api.undo(id ? { id } : {});
    } finally {
      // a refusal may mean History is stale (undone elsewhere): read it again either way
      if (watchers.history > 0) void get().load('history');
    }
  },
  async redo(id) {
    try {
      return await client().api.redo(id ? { id } : {});
    } finally {
      if (watchers.history > 0) void get().load('history');
    }
  },
  async openExport(name) {
    // Read again after an export: the targets stay shown until the new answer is in.
    set((s) => ({ exportView: { name, targets: s.exportView?.name === name ? s.exportView.targets : null, error: null } }));
    try {
      const { targets } = await client().api.exportTargets({ name });
      if (get().exportView?.name === name) set({ exportView: { name, targets, error: null } });
    } catch (err) {
      const view = get().exportView;
      if (view?.name === name) set({ exportView: { name, targets: view.targets, error: errorText(err) } });
    }
  },
  closeExport() {
    set({ exportView: null });
  },
  async exportTo(name, agents, mode) {
    const out: Record<string, { ok: MethodOutput<'exportSkill'> } | { error: string }> = {};
    for (const agent of agents) {
      try {
        out[agent] = { ok: await client().api.exportSkill({ name, agent, mode }) };
      } catch (err) {
        out[agent] = { error: errorText(err) };
      }
    }
    if (get().exportView?.name === name) await get().openExport(name);
    return out;
  },
  checkName: (name) => client().api.checkSkillName({ name }),
  async createSkill(name, template, description, words) {
    return (await client().api.createSkill({ name, template, ...(description ? { description } : {}), ...(words ? { words } : {}) })).name;
  },
}));
