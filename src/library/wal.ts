import fs from 'node:fs';
import path from 'node:path';
import type { JournalChange, JournalEntry } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { appendJournal, newJournalId, type JournalInput } from './journal.js';
import { removeNoFollow } from './tree.js';
import { writeFileAtomic } from '../store/index.js';
import { revertPatch } from './json-keys.js';

// Crash safety for every operation that changes disk. Before each change an operation makes, it
// writes the change it is about to make to `<home>/pending-operation.jsonl` (write-ahead). The
// pending file's first line names the journal id the operation's entry will get: writing that
// entry is the commit point, and only then is the pending file removed. A crash (kill -9, power
// cut after the page cache reached disk) leaves the pending file behind, and the next operation
// under the library lock, `undo` or `doctor --repair` settles it (src/library/recover.ts): an
// operation whose entry is in the journal had finished (only the pending file is cleared), an
// `undo` is finished, and anything else is rolled back change by change.

/**
 * A line of the pending file: a journal change, or one of two steps only the write-ahead log knows.
 * `replaced`: `tmp` renamed over `path` while the old file is kept (hard link) at `keptAt`, so the
 * path is never missing; undone by renaming `keptAt` back over `path`. `rewrote-file`: a small data
 * file (approvals) replaced atomically; undone by writing `content` back (null: there was none).
 */
export type WalChange =
  | JournalChange
  | { kind: 'replaced'; path: string; tmp: string; keptAt: string }
  | { kind: 'rewrote-file'; path: string; content: string | null; mode?: number };

export interface PendingOperation {
  op: string;
  time: string;
  pid: number;
  /** The id its journal entry gets: that entry in the journal means the operation committed. */
  id?: string;
  /** For `undo`: the entry it reverts (a crashed undo is finished, never half left). */
  undoes?: string;
  /** For `redo`: the operation it redoes (finished the same way). */
  redoes?: string;
  /** Changes the operation announced, oldest first; the last may or may not have happened. */
  changes: WalChange[];
}

export interface RolledBack {
  op: string;
  time: string;
  /** Changes found done and undone. */
  undone: number;
  /** Changes that could not be undone, with the reason (left for the user; doctor lists them). */
  failed: Array<{ change: WalChange; reason: string }>;
}

export function pendingFile(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'pending-operation.jsonl');
}

// Tests only: a test's child process sets SKILLDOCK_TEST_CRASH_AT=N and dies by SIGKILL at the
// Nth step of the write-ahead path (right after each announced change is written, and either side
// of the commit), or `committed` (right after the journal entry, the pending file still there), so
// a crash test stops an operation at every point without racing it from outside.
const crashAt = process.env.SKILLDOCK_TEST_CRASH_AT ?? '';
let steps = 0;
function crashPoint(where?: 'committed'): void {
  if (!crashAt) return;
  if (++steps === Number(crashAt) || where === crashAt) process.kill(process.pid, 'SIGKILL');
}

/** The operation in progress; use under the library lock, from its first change to its journal entry. */
export class WriteAhead {
  /** The id the operation's journal entry gets (written into the pending file first). */
  readonly id = newJournalId();
  private readonly file: string;
  private open = false;
  /** The pending file, kept open from begin() to done() or close(): one write per change, not an open and a close too. */
  private fd: number | null = null;

  constructor(
    private readonly ctx: ServiceContext,
    readonly op: string,
    private readonly extra: { undoes?: string; redoes?: string } = {},
  ) {
    this.file = pendingFile(ctx);
  }

  /** Write the pending file's first line (the operation, its journal id): it has begun. */
  begin(): void {
    if (this.open) return;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const head = { op: this.op, time: new Date().toISOString(), pid: process.pid, id: this.id, ...this.extra };
    fs.writeFileSync(this.file, JSON.stringify(head) + '\n', { mode: 0o600 });
    this.open = true;
    this.fd = fs.openSync(this.file, 'a');
  }

  /** Announce a change before making it. */
  will(change: WalChange): void {
    this.begin();
    fs.writeSync(this.fd!, JSON.stringify(change) + '\n');
    crashPoint();
  }

  /** Let go of the pending file, leaving it where it is (for recovery, after a failure). */
  close(): void {
    if (this.fd === null) return;
    fs.closeSync(this.fd);
    this.fd = null;
  }

  /**
   * The commit point: write the operation's journal entry under the id the pending file names,
   * then drop the pending file. A crash in between leaves an operation recovery sees as done.
   */
  commit(input: Omit<JournalInput, 'id'>): JournalEntry {
    crashPoint();
    let entry: JournalEntry;
    try {
      entry = appendJournal(this.ctx, { ...input, id: this.id });
    } catch (err) {
      this.close();
      throw err;
    }
    crashPoint('committed');
    this.done();
    return entry;
  }

  /** Nothing is pending any more (committed, or it changed nothing). */
  done(): void {
    this.close();
    if (this.open) fs.rmSync(this.file, { force: true });
    this.open = false;
  }
}

/** The interrupted operation left behind, if any (a torn last line is the change that never began). */
export function readPending(ctx: ServiceContext): PendingOperation | null {
  let text: string;
  try {
    text = fs.readFileSync(pendingFile(ctx), 'utf8');
  } catch {
    return null;
  }
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const parsed: unknown[] = [];
  for (const line of lines) {
    try {
      parsed.push(JSON.parse(line));
    } catch {
      break; // written half when the process died: that change had not started
    }
  }
  const head = parsed[0] as Partial<PendingOperation> | undefined;
  if (!head || typeof head.op !== 'string') return { op: 'unknown', time: '', pid: 0, changes: [] };
  return {
    op: head.op,
    time: String(head.time ?? ''),
    pid: Number(head.pid ?? 0),
    ...(typeof head.id === 'string' ? { id: head.id } : {}),
    ...(typeof head.undoes === 'string' ? { undoes: head.undoes } : {}),
    ...(typeof head.redoes === 'string' ? { redoes: head.redoes } : {}),
    changes: parsed.slice(1) as WalChange[],
  };
}

/** Whether an announced change had happened before the crash (is in its after-state). */
export function happened(c: WalChange): boolean {
  const exists = (p: string) => {
    try {
      fs.lstatSync(p);
      return true;
    } catch {
      return false; // ENOENT, or ENOTDIR: a path under something that is not a folder is not there
    }
  };
  switch (c.kind) {
    case 'replaced':
      return !exists(c.tmp) && exists(c.keptAt);
    case 'rewrote-file':
    case 'patched-json':
      return true; // putting the old content back is harmless when the new never landed
    case 'created':
    case 'created-dir':
      return exists(c.path);
    case 'moved':
      return !exists(c.from) && exists(c.to);
    case 'removed-file':
    case 'removed-dir':
    case 'unlinked':
      return !exists(c.path);
  }
}

/** Undo one change that happened (never following a link; a folder that gained content stays). */
function undo(c: WalChange): void {
  switch (c.kind) {
    case 'replaced':
      fs.renameSync(c.keptAt, c.path);
      return;
    case 'rewrote-file':
      if (c.content === null) fs.rmSync(c.path, { force: true });
      else {
        writeFileAtomic(c.path, c.content);
        // A file outside the home (a project's lock) gets its own permissions back, not 0600.
        if (c.mode !== undefined) fs.chmodSync(c.path, c.mode);
      }
      return;
    case 'created':
      removeNoFollow(c.path);
      return;
    case 'created-dir':
      try {
        fs.rmdirSync(c.path);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw err;
      }
      return;
    case 'moved':
      fs.mkdirSync(path.dirname(c.from), { recursive: true });
      fs.renameSync(c.to, c.from);
      return;
    case 'removed-file':
      fs.mkdirSync(path.dirname(c.path), { recursive: true });
      fs.writeFileSync(c.path, c.content, { flag: 'wx' });
      return;
    case 'removed-dir':
      fs.mkdirSync(c.path, { recursive: true });
      return;
    case 'unlinked':
      fs.symlinkSync(c.linkTarget, c.path);
      return;
    case 'patched-json':
      revertPatch(c);
      return;
  }
}

/** Undo, newest first, each announced change that happened; then the pending file is removed. */
export function rollBack(ctx: ServiceContext, pending: PendingOperation): RolledBack {
  const out: RolledBack = { op: pending.op, time: pending.time, undone: 0, failed: [] };
  for (const c of [...pending.changes].reverse()) {
    if (!happened(c)) continue;
    try {
      undo(c);
      out.undone++;
    } catch (err) {
      out.failed.push({ change: c, reason: (err as Error).message });
    }
  }
  fs.rmSync(pendingFile(ctx), { force: true });
  return out;
}

/** Roll the interrupted operation back whatever it was (a failed, not crashed, operation); null when none. */
export function rollBackPending(ctx: ServiceContext): RolledBack | null {
  const pending = readPending(ctx);
  return pending ? rollBack(ctx, pending) : null;
}
