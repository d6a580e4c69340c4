import { create } from 'zustand';
import { client } from '../client-port';
import { editorChecks } from './editor-checks';
import { editorPaths } from './editor-paths';
import { editorSave } from './editor-save';
import { EMPTY, SKILL_FILE, type EditorState, type OpenFile } from './editor-state';
import { errorText } from './errors';

/** The skill editor's store: the open files here; checks, saving and the file tree in their own parts. */
export const useEditor = create<EditorState>((set, get) => {
  const checks = editorChecks(set, get);
  const readInto = async (path: string): Promise<OpenFile> => {
    const f = await client().api.readSkillFile({ skill: get().skill!, path });
    return {
      path,
      disk: f.content,
      hash: f.hash,
      buffer: f.content ?? '',
      readOnly: f.readOnly,
      ...(f.readOnlyReason ? { readOnlyReason: f.readOnlyReason } : {}),
      rev: (get().open[path]?.rev ?? 0) + 1,
    };
  };

  return {
    ...EMPTY,
    ...editorSave(set, get, checks),
    ...editorPaths(set, get, checks),
    async load(skill) {
      set({ ...EMPTY, skill });
      try {
        const files = await client().api.listSkillFiles({ skill });
        if (get().skill !== skill) return;
        set({ files });
        if (files.files.some((f) => f.path === SKILL_FILE)) await get().openFile(SKILL_FILE);
        else {
          const first = files.files.find((f) => f.kind === 'file');
          if (first) await get().openFile(first.path);
        }
      } catch (err) {
        set({ loadError: errorText(err) });
      }
    },
    async openFile(path) {
      if (!get().open[path]) {
        try {
          const f = await readInto(path);
          set((s) => ({ open: { ...s.open, [path]: f } }));
        } catch (err) {
          set({ saveError: errorText(err) });
          return;
        }
      }
      set({ current: path, scan: null, jump: null });
      if (path === SKILL_FILE && !get().lint) void checks.lintNow();
      checks.scheduleScan(0);
    },
    async jumpTo(path, line) {
      if (path !== get().current) await get().openFile(path);
      if (get().current === path) set((s) => ({ jump: { line, seq: (s.jump?.seq ?? 0) + 1 } }));
    },
    edit(text) {
      const { current, open } = get();
      const f = open[current];
      if (!f || f.readOnly) return;
      set({ open: { ...open, [current]: { ...f, buffer: text } } });
      if (current === SKILL_FILE) checks.scheduleLint();
      checks.scheduleScan();
    },
    async refreshFiles() {
      const { skill } = get();
      if (!skill) return;
      try {
        const files = await client().api.listSkillFiles({ skill });
        if (get().skill === skill) set({ files });
      } catch {
        // keep the last listing
      }
    },
    dirtyPaths() {
      return Object.values(get().open)
        .filter((f) => !f.readOnly && f.disk !== null && f.buffer !== f.disk)
        .map((f) => f.path);
    },
    async reloadClean() {
      const dirty = new Set(get().dirtyPaths());
      const paths = Object.keys(get().open).filter((p) => !dirty.has(p));
      const fresh: Record<string, OpenFile> = {};
      for (const p of paths) {
        try {
          const f = await readInto(p);
          if (f.hash !== get().open[p]?.hash) fresh[p] = f;
        } catch {
          // gone (an undone create): leave the buffer; the file list shows it missing
        }
      }
      set((s) => ({ open: { ...s.open, ...fresh } }));
      await get().refreshFiles();
      checks.scheduleLint(0);
    },
    async undoLastSave() {
      const { current, saves } = get();
      const id = saves[current]?.at(-1);
      if (!id) return;
      try {
        await client().api.undo({ id });
      } finally {
        // done, or refused because it was already undone elsewhere: either way not this button's any more
        await get().reloadClean();
      }
      set((s) => ({ saves: { ...s.saves, [current]: (s.saves[current] ?? []).filter((x) => x !== id) } }));
    },
    async copyToLibrary() {
      const dir = get().files?.dir;
      if (!dir) return undefined;
      let out = await client().api.importPaths({ paths: [dir] });
      if (out.conflicts > 0) out = await client().api.importPaths({ paths: [dir], onConflict: 'keep-both' });
      return out.results[0];
    },
    reset() {
      checks.cancel();
      set(EMPTY);
    },
  };
});
