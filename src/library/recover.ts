import fs from 'node:fs';
import type { JournalEntry } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { appendJournal, libraryLock, libraryNames, readJournal } from './journal.js';
import { pendingFile, readPending, rollBack, rollBackPending, WriteAhead, type PendingOperation } from './wal.js';
import { finishAct } from './undo.js';

// The one write-ahead path every operation that changes disk goes through (import, replace,
// update, undo, delete, restore, edits, create, adopt, export, approvals), and how a crash's
// leftovers are settled: under the library lock, before the next operation, by `undo` and by
// `doctor --repair`.

/** What settling an interrupted operation did. */
export type Settled =
  /** Its journal entry was written (it had finished): only the pending file was left; cleared. */
  | { outcome: 'committed'; op: string; time: string }
  /** Rolled back change by change: the disk is as it was before it began. */
  | { outcome: 'rolled-back'; op: string; time: string; undone: number; failed: Array<{ path: string; reason: string }> }
  /** An undo, finished: what it reverts is reverted whole, with its `undo` entry written. */
  | {
      outcome: 'finished';
      op: string;
      time: string;
      undone: number;
      failed: Array<{ path: string; reason: string }>;
      target: JournalEntry | null;
      entry: JournalEntry | null;
    };

const where = (c: { kind: string; path?: string; to?: string }) => String(c.kind === 'moved' ? c.to : c.path);

/** Settle what a crash left (call under the library lock); null when nothing was pending. */
export async function settlePending(ctx: ServiceContext): Promise<Settled | null> {
  const pending = readPending(ctx);
  if (!pending) return null;
  const entries = readJournal(ctx);
  if (pending.id && entries.some((e) => e.id === pending.id)) {
    fs.rmSync(pendingFile(ctx), { force: true });
    return { outcome: 'committed', op: pending.op, time: pending.time };
  }
  if ((pending.op === 'undo' && pending.undoes) || (pending.op === 'redo' && pending.redoes)) return finishUndo(ctx, pending);
  const r = rollBack(ctx, pending);
  return {
    outcome: 'rolled-back',
    op: r.op,
    time: r.time,
    undone: r.undone,
    failed: r.failed.map((f) => ({ path: where(f.change), reason: f.reason })),
  };
}

/** Finish an undo or redo a crash interrupted: revert what is still in its after-state, then write its record. */
async function finishUndo(ctx: ServiceContext, pending: PendingOperation): Promise<Settled> {
  const r = await finishAct(ctx, pending);
  fs.rmSync(pendingFile(ctx), { force: true });
  return {
    outcome: 'finished',
    op: pending.op,
    time: pending.time,
    undone: r.changes.length,
    failed: r.failed,
    target: r.target,
    entry: r.entry,
  };
}

/** Settle a crash's leftovers (under the lock); a rollback is said in the journal and as an event. */
export async function recoverLocked(ctx: ServiceContext): Promise<Settled | null> {
  const r = await settlePending(ctx);
  if (r?.outcome === 'rolled-back') {
    appendJournal(ctx, {
      op: 'recovered',
      summary: `An interrupted ${r.op} (begun ${r.time}) was rolled back: ${r.undone} change(s) undone${r.failed.length ? `, ${r.failed.length} could not be` : ''}`,
    });
    ctx.events.emit({ type: 'operation-rolled-back', op: r.op, time: r.time, undone: r.undone, failed: r.failed });
  }
  if (r?.outcome === 'finished' && r.target) {
    ctx.events.emit({ type: 'library-changed', names: libraryNames(ctx, r.target.changes ?? []), op: 'undo' });
  }
  return r;
}

/**
 * Run `fn` under the library lock with a write-ahead log: what a crash left is settled first, `fn`
 * announces each change with `wal.will` and ends with `wal.commit(entry)`. An operation that fails
 * here (not a crash) takes back what it had begun before the error goes on.
 */
export function runJournaled<R>(ctx: ServiceContext, op: string, fn: (wal: WriteAhead) => Promise<R> | R): Promise<R> {
  return libraryLock(ctx).runAsync(async () => {
    await recoverLocked(ctx);
    const wal = new WriteAhead(ctx, op);
    try {
      const out = await fn(wal);
      wal.done();
      return out;
    } catch (err) {
      wal.close();
      rollBackPending(ctx);
      throw err;
    }
  });
}
