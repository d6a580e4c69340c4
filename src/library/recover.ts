import fs from 'node:fs';
import type { JournalChange, JournalEntry } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import {
  appendJournal,
  assertRevertible,
  lastUndoable,
  libraryLock,
  libraryNames,
  readJournal,
  revertAll,
  undoHandler,
} from './journal.js';
import { happened, pendingFile, readPending, rollBack, rollBackPending, WriteAhead, type PendingOperation } from './wal.js';

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
  if (pending.op === 'undo' && pending.undoes) return finishUndo(ctx, pending, entries);
  const r = rollBack(ctx, pending);
  return {
    outcome: 'rolled-back',
    op: r.op,
    time: r.time,
    undone: r.undone,
    failed: r.failed.map((f) => ({ path: where(f.change), reason: f.reason })),
  };
}

/** Finish an undo a crash interrupted: revert what is still in its after-state, then write its entry. */
async function finishUndo(ctx: ServiceContext, pending: PendingOperation, entries: JournalEntry[]): Promise<Settled> {
  const target = entries.find((e) => e.id === pending.undoes) ?? null;
  const failed: Array<{ path: string; reason: string }> = [];
  let changes: JournalChange[] = [];
  let message = '';
  if (!target) failed.push({ path: pending.undoes ?? '', reason: 'the entry it reverts is no longer in the journal' });
  else {
    try {
      const handler = undoHandler(ctx, target.op);
      if (handler) message = (await handler(target)).message ?? '';
      else changes = revertAll([...(target.changes ?? [])].reverse(), { isAfter: happened });
    } catch (err) {
      failed.push({ path: (target.changes ?? []).map(where).at(-1) ?? '', reason: (err as Error).message });
    }
  }
  const entry = target
    ? appendJournal(ctx, {
        id: pending.id,
        op: 'undo',
        undoes: target.id,
        summary: message || `Undid ${target.op}${target.summary ? `: ${target.summary}` : ''} (finished after an interruption)`,
        changes,
      })
    : null;
  fs.rmSync(pendingFile(ctx), { force: true });
  return { outcome: 'finished', op: 'undo', time: pending.time, undone: changes.length, failed, target, entry };
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
      rollBackPending(ctx);
      throw err;
    }
  });
}

export interface UndoDone {
  undone: JournalEntry;
  entry: JournalEntry;
  message: string;
  names: string[];
}

/**
 * Revert the newest not-yet-undone entry (call under the library lock), write-ahead like every other
 * operation: the pending file names the entry it reverts, so a crash midway is finished by the next
 * operation or `doctor --repair` (an undo cannot be rolled back: a copy it removed is gone).
 */
export async function undoLocked(ctx: ServiceContext): Promise<UndoDone> {
  const target = lastUndoable(readJournal(ctx));
  if (!target) throw fail('not-found', 'journal.nothing-to-undo');
  const handler = undoHandler(ctx, target.op);
  const what = `${target.op}${target.summary ? `: ${target.summary}` : ''}`;
  if (!handler && !target.changes?.length) throw fail('unsupported', 'journal.not-undoable', { op: what });
  if (!handler) assertRevertible(ctx, target.changes!);
  const wal = new WriteAhead(ctx, 'undo', { undoes: target.id });
  let changes: JournalChange[];
  let message = `Undid ${what}`;
  if (handler) {
    wal.begin();
    const out = await handler(target);
    changes = out.changes ?? [];
    message = out.message ?? message;
  } else {
    changes = revertAll([...target.changes!].reverse(), { announce: (c) => wal.will(c) });
  }
  const entry = wal.commit({ op: 'undo', undoes: target.id, summary: message, changes });
  return { undone: target, entry, message, names: libraryNames(ctx, [...(target.changes ?? []), ...changes]) };
}
