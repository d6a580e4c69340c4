import { create } from 'zustand';
import type { BufferLint, ImportResult, MessageRef, ScanFinding, SkillFiles } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorCode, errorText } from './errors';

// The skill editor's state: the skill's files, one buffer per opened file, the engine's lint of
// the unsaved SKILL.md (debounced, newest answer wins), and the save flow with its conflict.
// The engine stays the authority: this is a cache of what it said plus the user's unsaved text.

export interface OpenFile {
  path: string;
  /** Text on disk when opened or last saved; null for a file shown without content. */
  disk: string | null;
  hash: string;
  buffer: string;
  readOnly: boolean;
  readOnlyReason?: MessageRef;
  /** Bumped when the buffer is replaced from outside (reload): the code editor rebuilds. */
  rev: number;
}

export interface Conflict {
  path: string;
  currentHash: string | null;
  currentContent: string | null;
  mine: string;
  showDiff: boolean;
}

export const SKILL_FILE = 'SKILL.md';
/** Pause after the last keystroke before asking the engine: short, the lint itself is fast. */
export const LINT_DEBOUNCE_MS = 40;

interface EditorState {
  skill: string | null;
  files: SkillFiles | null;
  current: string;
  open: Record<string, OpenFile>;
  lint: BufferLint | null;
  /** Security findings of the open file's unsaved text. */
  scan: { path: string; findings: ScanFinding[] } | null;
  /** Bumped on each lint answer applied (tests and the bench wait on it). */
  lintSeq: number;
  loadError: string | null;
  saveError: string | null;
  saving: boolean;
  conflict: Conflict | null;
  /** A line to show in the open file (from a click in the Problems list). */
  jump: { line: number; seq: number } | null;
  jumpTo(path: string, line: number): Promise<void>;
  /** The last save means the skill's scripts need approval again. */
  needsApproval: boolean;
  load(skill: string): Promise<void>;
  openFile(path: string): Promise<void>;
  edit(text: string): void;
  save(overwriteHash?: string | null): Promise<boolean>;
  reloadFromDisk(): void;
  showDiff(show: boolean): void;
  dismissConflict(): void;
  createFile(path: string): Promise<void>;
  createFolder(path: string): Promise<void>;
  /** Rename or delete a file or folder (`to` null deletes); open buffers under it are closed. */
  movePath(from: string, to: string | null): Promise<boolean>;
  refreshFiles(): Promise<void>;
  dirtyPaths(): string[];
  /** After an undo or another change on disk: re-read every open file without unsaved edits. */
  reloadClean(): Promise<void>;
  /** Undo the newest journal step (the last save, usually), then re-read the files not being edited. */
  undoLast(): Promise<void>;
  /**
   * A skill outside the library (read-only here) copied into it to edit: kept beside a library skill
   * of the same name rather than replacing it. The import's result for the folder.
   */
  copyToLibrary(): Promise<ImportResult | undefined>;
  reset(): void;
}

/** One pending call at a time: a new keystroke pushes it back. */
function debouncer() {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    schedule(fn: () => Promise<void>, delay: number) {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        void fn();
      }, delay);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
const lintTimer = debouncer();
const scanTimer = debouncer();
let lintAsked = 0;
let scanAsked = 0;

const EMPTY = {
  skill: null,
  files: null,
  current: SKILL_FILE,
  open: {},
  lint: null,
  scan: null,
  lintSeq: 0,
  loadError: null,
  saveError: null,
  saving: false,
  conflict: null,
  needsApproval: false,
  jump: null,
};

// A zustand store is one create() callback holding every action; each action is still measured on its own.
// eslint-disable-next-line max-lines-per-function
export const useEditor = create<EditorState>((set, get) => {
  /** Ask the engine to lint SKILL.md as it stands in the buffer (or on disk when not open). */
  const lintNow = async () => {
    const { skill, open } = get();
    const f = open[SKILL_FILE];
    if (!skill || !f || f.disk === null) return;
    const asked = ++lintAsked;
    try {
      const lint = await client().api.lintSkillBuffer({ skill, content: f.buffer });
      if (asked !== lintAsked || get().skill !== skill) return; // a newer keystroke already asked
      set((s) => ({ lint, lintSeq: s.lintSeq + 1 }));
    } catch {
      // the skill went away or the engine is gone: the page shows the load error on next action
    }
  };
  const scheduleLint = (delay = LINT_DEBOUNCE_MS) => lintTimer.schedule(lintNow, delay);
  /** The security scan of the open file as it stands in the buffer. */
  const scanNow = async () => {
    const { skill, current, open } = get();
    const f = open[current];
    if (!skill || !f || f.disk === null) return;
    const asked = ++scanAsked;
    try {
      const { findings } = await client().api.scanSkillBuffer({ skill, path: current, content: f.buffer });
      if (asked !== scanAsked || get().skill !== skill || get().current !== current) return;
      set({ scan: { path: current, findings } });
    } catch {
      // as for lint: the next action reports a lost engine
    }
  };
  const scheduleScan = (delay = LINT_DEBOUNCE_MS) => scanTimer.schedule(scanNow, delay);
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
      if (path === SKILL_FILE && !get().lint) void lintNow();
      scheduleScan(0);
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
      if (current === SKILL_FILE) scheduleLint();
      scheduleScan();
    },
    async save(overwriteHash) {
      const { skill, current, open } = get();
      const f = open[current];
      if (!skill || !f || f.readOnly) return false;
      set({ saving: true, saveError: null });
      const mine = f.buffer;
      try {
        const out = await client().api.saveSkillFile({
          skill,
          path: current,
          content: mine,
          expectedHash: overwriteHash !== undefined ? overwriteHash : f.hash,
        });
        set((s) => ({
          saving: false,
          conflict: null,
          needsApproval: out.needsApproval,
          open: { ...s.open, [current]: { ...s.open[current], disk: mine, hash: out.hash } },
        }));
        void get().refreshFiles();
        scheduleLint(0);
        return true;
      } catch (err) {
        const details = (err as { details?: { currentHash?: string | null; currentContent?: string | null } }).details;
        if (errorCode(err) === 'conflict' && details && 'currentHash' in details) {
          set({
            saving: false,
            conflict: {
              path: current,
              currentHash: details.currentHash ?? null,
              currentContent: details.currentContent ?? null,
              mine,
              showDiff: false,
            },
          });
        } else set({ saving: false, saveError: errorText(err) });
        return false;
      }
    },
    reloadFromDisk() {
      const c = get().conflict;
      if (!c) return;
      set((s) => {
        const f = s.open[c.path];
        const text = c.currentContent ?? '';
        return {
          conflict: null,
          open: { ...s.open, [c.path]: { ...f, disk: text, hash: c.currentHash ?? '', buffer: text, rev: f.rev + 1 } },
        };
      });
      if (c.path === SKILL_FILE) scheduleLint(0);
    },
    showDiff(show) {
      set((s) => (s.conflict ? { conflict: { ...s.conflict, showDiff: show } } : {}));
    },
    dismissConflict() {
      set({ conflict: null });
    },
    async createFile(path) {
      const { skill } = get();
      if (!skill) return;
      set({ saveError: null });
      try {
        await client().api.saveSkillFile({ skill, path, content: '', expectedHash: null });
        await get().refreshFiles();
        await get().openFile(path);
      } catch (err) {
        set({ saveError: errorText(err) });
      }
    },
    async createFolder(path) {
      const { skill } = get();
      if (!skill) return;
      set({ saveError: null });
      try {
        await client().api.createSkillFolder({ skill, path });
        await get().refreshFiles();
      } catch (err) {
        set({ saveError: errorText(err) });
      }
    },
    async movePath(from, to) {
      const { skill } = get();
      if (!skill) return false;
      set({ saveError: null });
      try {
        if (to === null) await client().api.deleteSkillPath({ skill, path: from });
        else await client().api.renameSkillPath({ skill, from, to });
      } catch (err) {
        set({ saveError: errorText(err) });
        return false;
      }
      const under = (p: string) => p === from || p.startsWith(`${from}/`);
      set((s) => ({
        open: Object.fromEntries(Object.entries(s.open).filter(([p]) => !under(p))),
        // a renamed file stays open under its new name; a deleted one gives way to SKILL.md
        current: !under(s.current) ? s.current : to === null ? SKILL_FILE : to + s.current.slice(from.length),
      }));
      await get().refreshFiles();
      if (!get().open[get().current]) await get().openFile(get().current);
      scheduleLint(0);
      return true;
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
      scheduleLint(0);
    },
    async undoLast() {
      await client().api.undo({});
      await get().reloadClean();
    },
    async copyToLibrary() {
      const dir = get().files?.dir;
      if (!dir) return undefined;
      let out = await client().api.importPaths({ paths: [dir] });
      if (out.conflicts > 0) out = await client().api.importPaths({ paths: [dir], onConflict: 'keep-both' });
      return out.results[0];
    },
    reset() {
      lintTimer.cancel();
      scanTimer.cancel();
      set(EMPTY);
    },
  };
});
