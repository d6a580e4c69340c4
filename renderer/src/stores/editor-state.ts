import type { StoreApi } from 'zustand';
import type { BufferLint, ImportResult, MessageRef, ScanFinding, SkillFiles } from '../../../src/contract/index';

// The skill editor's state: the skill's files, one buffer per opened file, the engine's lint of
// the unsaved SKILL.md (debounced, newest answer wins), and the save flow with its conflict.
// The engine stays the authority: this is a cache of what it said plus the user's unsaved text.
// The store (editor-store.ts) is made of parts along what they do: the open files, the checks
// (editor-checks.ts), saving with its conflict (editor-save.ts), and the file tree (editor-paths.ts).

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

export interface EditorState {
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
  /** Journal ids of the saves made in this editor, per file, oldest first: what its Undo may revert. */
  saves: Record<string, string[]>;
  /** Undo the open file's last save made here (that operation only), then re-read the files not being edited. */
  undoLastSave(): Promise<void>;
  /**
   * A skill outside the library (read-only here) copied into it to edit: kept beside a library skill
   * of the same name rather than replacing it. The import's result for the folder.
   */
  copyToLibrary(): Promise<ImportResult | undefined>;
  reset(): void;
}

export type SetEditor = StoreApi<EditorState>['setState'];
export type GetEditor = StoreApi<EditorState>['getState'];

/** The lint and scan of the unsaved text, shared by the store's parts. */
export interface EditorChecks {
  lintNow(): Promise<void>;
  scheduleLint(delay?: number): void;
  scheduleScan(delay?: number): void;
  cancel(): void;
}

export const EMPTY = {
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
  saves: {},
} satisfies Partial<EditorState>;
