import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  formatMessage,
  JournalEntrySchema,
  type JournalChange,
  type JournalEntry,
  type MessageKey,
  type MessageRef,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { FileLock, writeFileAtomic } from '../store/index.js';
import { allAgents, expandHome } from '../agents/registry.js';
import { isInside, relativeInside } from '../base/extpath.js';
import { lstatOrNull, removeNoFollow, treeDigest } from './tree.js';
import { revertPatch } from './json-keys.js';

// `<home>/journal.jsonl`: one JSON line per operation that changed disk. Any domain may append
// (its own `op` names and extra fields are kept). Undo and redo act on one operation by its id
// (src/library/undo.ts): by a handler registered for its op, or else by reverting its `changes` in
// reverse order, and append an `undo` or `redo` record naming it (src/library/operations.ts).

export type JournalInput = Omit<JournalEntry, 'id' | 'time'> & { id?: string; time?: string };

export function journalFile(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'journal.jsonl');
}

/** The lock every library-changing operation holds (import, delete, restore, adopt, export, undo). */
export function libraryLock(ctx: ServiceContext): FileLock {
  return new FileLock(path.join(ctx.paths.home, 'locks', 'library.lock'), { timeoutMs: 60_000 });
}

export function newJournalId(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** Append one entry (one `write` on an O_APPEND fd, so concurrent appenders never interleave). */
export function appendJournal(ctx: ServiceContext, input: JournalInput): JournalEntry {
  const entry = JournalEntrySchema.parse({ ...input, id: input.id ?? newJournalId(), time: input.time ?? new Date().toISOString() });
  const file = journalFile(ctx);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'a+', 0o600);
  try {
    // A torn last line (a power cut mid-append, or damage) must not swallow this entry: end it first.
    const size = fs.fstatSync(fd).size;
    const last = Buffer.alloc(1);
    const torn = size > 0 && fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a;
    fs.writeSync(fd, (torn ? '\n' : '') + JSON.stringify(entry) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return entry;
}

/** An op that stands in for a journal line that could not be read; undo never goes past it. */
export const DAMAGED_OP = 'damaged';

export interface JournalRead {
  /** Entries, oldest first; a line that could not be read is a `damaged` entry in its place. */
  entries: JournalEntry[];
  /** 1-based numbers of lines that could not be read and are not yet set aside by a repair. */
  damagedLines: number[];
}

/** Read the journal, keeping the place of every line that could not be read. */
export function readJournalChecked(ctx: ServiceContext): JournalRead {
  let text: string;
  try {
    text = fs.readFileSync(journalFile(ctx), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], damagedLines: [] };
    throw err;
  }
  const out: JournalRead = { entries: [], damagedLines: [] };
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let parsed: ReturnType<typeof JournalEntrySchema.safeParse> | undefined;
    try {
      parsed = JournalEntrySchema.safeParse(JSON.parse(line));
    } catch {
      parsed = undefined;
    }
    if (parsed?.success) {
      out.entries.push(parsed.data);
      return;
    }
    out.damagedLines.push(i + 1);
    out.entries.push(damagedEntry(i + 1, Buffer.byteLength(line), null));
  });
  return out;
}

function damagedEntry(line: number, bytes: number, keptAt: string | null): JournalEntry {
  const msg: MessageRef = keptAt
    ? { key: 'journal.damaged-line', params: { line, bytes, keptAt } }
    : { key: 'journal.damaged-line-unrepaired', params: { line, bytes } };
  return { id: `damaged-line-${line}`, op: DAMAGED_OP, time: '', summary: formatMessage(msg), msg, line, bytes };
}

/** All entries, oldest first (a line that could not be read is a `damaged` entry in its place). */
export function readJournal(ctx: ServiceContext): JournalEntry[] {
  return readJournalChecked(ctx).entries;
}

/**
 * Set damaged lines aside (call under the library lock): the whole damaged file is kept as
 * `journal.jsonl.damaged-<time>`, and the journal is rewritten with every readable entry where it
 * was and a `damaged` entry in place of each unreadable line. Null when nothing was damaged.
 */
export function salvageJournal(ctx: ServiceContext): { lines: number[]; keptAt: string } | null {
  const file = journalFile(ctx);
  const read = readJournalChecked(ctx);
  if (!read.damagedLines.length) return null;
  const keptAt = `${file}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.copyFileSync(file, keptAt, fs.constants.COPYFILE_EXCL);
  const text = fs.readFileSync(file, 'utf8').split('\n');
  const entries = read.entries.map((e) => {
    if (e.op !== DAMAGED_OP || !read.damagedLines.includes(Number(e.line))) return e;
    const n = Number(e.line);
    return {
      ...damagedEntry(n, Buffer.byteLength(text[n - 1] ?? ''), keptAt),
      id: `damaged-${newJournalId()}`,
      time: new Date().toISOString(),
    };
  });
  writeFileAtomic(file, entries.map((e) => JSON.stringify(e) + '\n').join(''));
  return { lines: read.damagedLines, keptAt };
}

export interface UndoOutcome {
  /** Changes made while undoing (recorded on the `undo` entry). */
  changes?: JournalChange[];
  message?: string;
}
/** How a domain undoes (and redoes) an op of its own that has no file changes to revert. */
export interface UndoHandler {
  /** Whether this handler undoes `entry` (absent: every entry of its op); else the changes are reverted like any. */
  applies?(entry: JournalEntry): boolean;
  undo(entry: JournalEntry): UndoOutcome | Promise<UndoOutcome>;
  redo?(entry: JournalEntry): UndoOutcome | Promise<UndoOutcome>;
}

/** Another domain can teach undo how to revert its own op (called under the library lock). */
export function registerUndoHandler(ctx: ServiceContext, op: string, handler: UndoHandler | UndoHandler['undo']): void {
  ctx
    .use('journal:undo-handlers', () => new Map<string, UndoHandler>())
    .set(op, typeof handler === 'function' ? { undo: handler } : handler);
}

/** The handler registered for `op`, if any (given the entry: only when it applies to that entry). */
export function undoHandler(ctx: ServiceContext, op: string, entry?: JournalEntry): UndoHandler | undefined {
  const h = ctx.use('journal:undo-handlers', () => new Map<string, UndoHandler>()).get(op);
  return h && entry && h.applies && !h.applies(entry) ? undefined : h;
}

/** Throw (saying why) unless every change of an entry can be reverted now; nothing is touched. */
export function assertRevertible(ctx: ServiceContext, changes: JournalChange[], extraRoots: string[] = []): void {
  checkRevert(changes, [...allowedRoots(ctx), ...extraRoots.map((r) => path.resolve(r))]);
}

/** Folders an entry itself names as written by it (a project deploy's project), where its undo may act too. */
export function entryRoots(entry: JournalEntry): string[] {
  return typeof entry.project === 'string' && path.isAbsolute(entry.project) ? [entry.project] : [];
}

/** Folders undo may remove from or put back into: SkillDock's home and the agents' user roots. */
function allowedRoots(ctx: ServiceContext): string[] {
  const roots = [ctx.paths.home];
  try {
    for (const a of allAgents(ctx.paths.resourcesDir)) for (const d of a.userDirs) roots.push(expandHome(d, ctx.paths.userHome));
  } catch {
    // no registry: only the home
  }
  return roots.map((r) => path.resolve(r));
}

type Sim = Map<string, boolean>;
function present(sim: Sim, p: string): boolean {
  const v = sim.get(p);
  return v ?? lstatOrNull(p) !== undefined;
}

/** Why a path stops undo, as a message. */
const about = (key: MessageKey, p: string): MessageRef => ({ key, params: { path: p } });

function matchesCreated(change: Extract<JournalChange, { kind: 'created' }>): MessageRef | undefined {
  const st = lstatOrNull(change.path);
  if (!st) return about('journal.gone', change.path);
  if (change.linkTarget !== undefined) {
    if (!st.isSymbolicLink() || fs.readlinkSync(change.path) !== change.linkTarget) return about('journal.not-our-link', change.path);
    return undefined;
  }
  if (st.isSymbolicLink()) return about('journal.now-link', change.path);
  if (!change.digest) return about('journal.no-digest', change.path);
  if (treeDigest(change.path) !== change.digest) return about('journal.modified', change.path);
  return undefined;
}

/** Check that every change can be reverted, on a simulated view of the disk, before touching it. */
function checkRevert(changes: JournalChange[], roots: string[]): void {
  const sim: Sim = new Map();
  const guard = (p: string) => {
    if (!path.isAbsolute(p) || !roots.some((r) => isInside(path.resolve(p), r))) {
      throw fail('refused', 'journal.outside', { path: p });
    }
  };
  for (const c of [...changes].reverse()) {
    const why = (m: MessageRef) => fail('conflict', 'journal.cannot-undo', { why: m });
    switch (c.kind) {
      case 'created': {
        guard(c.path);
        const problem = sim.has(c.path) ? (sim.get(c.path) ? undefined : about('journal.gone', c.path)) : matchesCreated(c);
        if (problem) throw why(problem);
        sim.set(c.path, false);
        break;
      }
      case 'created-dir':
        // only ever removed when empty, so a parent of an allowed folder (`~/.qwen`) is fine too
        if (!roots.some((r) => isInside(r, path.resolve(c.path)))) guard(c.path);
        sim.set(c.path, false);
        break;
      case 'moved':
        guard(c.from);
        guard(c.to);
        if (!present(sim, c.to)) throw why(about('journal.gone', c.to));
        if (present(sim, c.from)) throw why(about('journal.exists-again', c.from));
        sim.set(c.to, false);
        sim.set(c.from, true);
        break;
      case 'removed-dir':
        // put back only as an empty folder: a parent of an allowed folder (`~/.qwen`) is fine too
        if (!roots.some((r) => isInside(r, path.resolve(c.path)))) guard(c.path);
        if (present(sim, c.path)) throw why(about('journal.exists-again', c.path));
        sim.set(c.path, true);
        break;
      case 'patched-json':
        // keys set back one by one: nothing on disk can stop it, but only SkillDock's own files
        guard(c.path);
        break;
      case 'unlinked':
      case 'removed-file':
        guard(c.path);
        if (present(sim, c.path)) throw why(about('journal.exists-again', c.path));
        sim.set(c.path, true);
        break;
    }
  }
}

/**
 * Rename, or where `to` is on another disk (an agent's folder and SkillDock's home may be), copy
 * exactly (links as links) and then remove the original.
 */
export function moveAcross(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true, force: false });
    removeNoFollow(from);
  }
}

/** Revert one change (no checks: callers check first or own the change). Returns the inverse. */
export function revertChange(c: JournalChange): JournalChange {
  switch (c.kind) {
    case 'created': {
      const st = lstatOrNull(c.path);
      if (c.linkTarget === undefined && st?.isFile()) {
        const content = fs.readFileSync(c.path, 'utf8');
        fs.unlinkSync(c.path);
        return { kind: 'removed-file', path: c.path, content };
      }
      removeNoFollow(c.path);
      return c.linkTarget !== undefined
        ? { kind: 'unlinked', path: c.path, linkTarget: c.linkTarget }
        : { kind: 'removed-dir', path: c.path };
    }
    case 'created-dir':
      try {
        fs.rmdirSync(c.path); // never recursive: a folder that gained other content stays
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return c;
        throw err;
      }
      return { kind: 'removed-dir', path: c.path };
    case 'moved':
      moveAcross(c.to, c.from);
      return { kind: 'moved', from: c.to, to: c.from };
    case 'unlinked':
      fs.symlinkSync(c.linkTarget, c.path);
      return { kind: 'created', path: c.path, linkTarget: c.linkTarget };
    case 'removed-file':
      fs.mkdirSync(path.dirname(c.path), { recursive: true });
      fs.writeFileSync(c.path, c.content, { flag: 'wx' });
      return { kind: 'created', path: c.path, digest: treeDigest(c.path) };
    case 'removed-dir':
      fs.mkdirSync(c.path);
      return { kind: 'created-dir', path: c.path };
    case 'patched-json':
      return revertPatch(c);
  }
}

/**
 * Revert `changes` (newest first) by removing what they created: for a domain's own undo handler
 * whose files are copies that can be made again (a project deploy). Library undo and redo use
 * revertKeeping (src/library/undo.ts), which keeps what it takes away.
 */
export function revertAll(changes: JournalChange[]): JournalChange[] {
  const out: JournalChange[] = [];
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const next = changes[i + 1];
    // a file that replaced another: the old one renamed back over it, the path never missing
    if (c.kind === 'created' && c.linkTarget === undefined && next?.kind === 'moved' && next.from === c.path && lstatOrNull(next.to)) {
      const content = fs.readFileSync(c.path, 'utf8');
      fs.renameSync(next.to, next.from);
      out.push({ kind: 'removed-file', path: c.path, content }, { kind: 'moved', from: next.to, to: next.from });
      i++;
      continue;
    }
    out.push(revertChange(c));
  }
  return out;
}

/** Library folder names an entry touched (for `library-changed`). */
export function libraryNames(ctx: ServiceContext, changes: JournalChange[]): string[] {
  const lib = path.join(ctx.paths.home, 'library');
  const names = new Set<string>();
  for (const c of changes) {
    for (const p of c.kind === 'moved' ? [c.from, c.to] : [c.path]) {
      // a library skill itself, or a file inside one (an edit)
      const rel = relativeInside(lib, p);
      if (rel) names.add(rel.split(path.sep)[0]!);
    }
  }
  return [...names];
}
