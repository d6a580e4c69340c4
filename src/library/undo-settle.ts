import type { JournalChange, JournalEntry } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { libraryNames, readJournal } from './journal.js';
import { describeOperation } from './operations.js';
import { recoverLocked } from './recover.js';
import { readPending } from './wal.js';
import { undoLocked, type ActDone } from './undo.js';

/** A write-ahead line that is a journal change (not one of the log's own steps). */
function isJournalChange(c: { kind: string }): c is JournalChange {
  return c.kind !== 'replaced' && c.kind !== 'rewrote-file';
}

/**
 * Undo under the library lock, settling a crash's leftovers first. Without an id, an operation a
 * crash interrupted is the last thing that happened: rolled back, or an undo finished, that is what
 * this undo did; one that had committed is undone like any other.
 */
export async function undoSettling(ctx: ServiceContext, id?: string): Promise<ActDone> {
  const pending = readPending(ctx);
  const settled = await recoverLocked(ctx);
  if (!id && pending && settled?.outcome === 'rolled-back') {
    const entry = readJournal(ctx).at(-1)!;
    const target: JournalEntry = {
      id: 'interrupted',
      op: pending.op,
      time: pending.time,
      summary: 'interrupted',
      changes: pending.changes.filter(isJournalChange),
    };
    return { target, entry, what: describeOperation(ctx, target), message: entry.summary ?? '', names: libraryNames(ctx, target.changes!) };
  }
  if (!id && settled?.outcome === 'finished' && settled.target && settled.entry) {
    const names = libraryNames(ctx, settled.target.changes ?? []);
    return {
      target: settled.target,
      entry: settled.entry,
      what: describeOperation(ctx, settled.target),
      message: settled.entry.summary ?? '',
      names,
    };
  }
  return undoLocked(ctx, id);
}
