import fs from 'node:fs';
import path from 'node:path';
import type { JournalChange } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { lstatOrNull, removeNoFollow } from './tree.js';

// Crash safety for operations that change the library. Before each change an operation makes on
// disk, it writes the change it is about to make to `<home>/pending-operation.jsonl` (write-ahead);
// its journal entry is written when it is done, and only then is the pending file removed. A crash
// (kill -9, power cut after the page cache reached disk) leaves the pending file behind: the next
// operation under the library lock, `undo` or `doctor --repair` rolls the interrupted operation back
// (each change it had begun is undone if it happened), so the library is as it was before it and
// `undo` never reverts an earlier, unrelated operation instead.

export interface PendingOperation {
  op: string;
  time: string;
  pid: number;
  /** Changes the operation announced, oldest first; the last may or may not have happened. */
  changes: JournalChange[];
}

export interface RolledBack {
  op: string;
  time: string;
  /** Changes found done and undone. */
  undone: number;
  /** Changes that could not be undone, with the reason (left for the user; doctor lists them). */
  failed: Array<{ change: JournalChange; reason: string }>;
}

export function pendingFile(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'pending-operation.jsonl');
}

/** The operation in progress; call under the library lock, from its first change to its journal entry. */
export class WriteAhead {
  private readonly file: string;
  private open = false;

  constructor(
    ctx: ServiceContext,
    private readonly op: string,
  ) {
    this.file = pendingFile(ctx);
  }

  /** Announce a change before making it. */
  will(change: JournalChange): void {
    if (!this.open) {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      fs.writeFileSync(this.file, JSON.stringify({ op: this.op, time: new Date().toISOString(), pid: process.pid }) + '\n', {
        mode: 0o600,
      });
      this.open = true;
    }
    fs.appendFileSync(this.file, JSON.stringify(change) + '\n');
  }

  /** The operation's journal entry is written (or it changed nothing): nothing is pending any more. */
  done(): void {
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
  return { op: head.op, time: String(head.time ?? ''), pid: Number(head.pid ?? 0), changes: parsed.slice(1) as JournalChange[] };
}

/** Whether an announced change had happened before the crash. */
function happened(c: JournalChange): boolean {
  const exists = (p: string) => lstatOrNull(p) !== undefined;
  switch (c.kind) {
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
function undo(c: JournalChange): void {
  switch (c.kind) {
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
  }
}

/** Roll the interrupted operation back (call under the library lock); null when none is pending. */
export function rollBackPending(ctx: ServiceContext): RolledBack | null {
  const pending = readPending(ctx);
  if (!pending) return null;
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
