import fs from 'node:fs';
import path from 'node:path';
import type { JournalChange, JournalEntry, MessageRef } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import {
  appendJournal,
  assertRevertible,
  entryRoots,
  libraryNames,
  readJournal,
  revertChange,
  undoHandler,
  moveAcross,
} from './journal.js';
import { blocker, describeOperation, newest, operationById, readOperations, type OpState } from './operations.js';
import { happened, WriteAhead } from './wal.js';
import { lstatOrNull, removeNoFollow, treeDigest } from './tree.js';
import { libraryDir, moveToTrash, settleBuildingTrash } from './trash.js';
import type { Announce } from './import.js';

// Undo and redo of one operation by its journal id. Neither destroys anything: a skill an undo
// takes out of the library goes to the trash, a folder or file it takes away elsewhere is moved
// under `<home>/undone/<undo id>/` (a small text file is kept in the journal itself), and a file a
// save replaced is kept there too. So the undo record's changes, reverted, are the redo, and the
// redo record's changes, reverted, are the next undo.

/** Files up to this size that are valid UTF-8 are kept in the journal entry, not in `undone/`. */
const INLINE_MAX = 256 * 1024;

export interface ActDone {
  /** The operation's own entry. */
  target: JournalEntry;
  /** The undo or redo record written. */
  entry: JournalEntry;
  what: MessageRef;
  message: string;
  names: string[];
}

export interface KeepOptions {
  /** Where this undo or redo keeps what it takes away: `<home>/undone/<its id>`. */
  keepDir: string;
  /** Told before each step (the write-ahead log). */
  wal?: Announce;
  /** Finishing after a crash: a change no longer in its after-state was reverted already. */
  isAfter?: (c: JournalChange) => boolean;
}

function smallText(p: string, size: number): string | undefined {
  if (size > INLINE_MAX) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(fs.readFileSync(p));
  } catch {
    return undefined;
  }
}

/**
 * Revert `changes` (newest first) keeping everything it takes away, and return the changes made,
 * in the order made. A save (a file created where the old one was moved from) is put back in one
 * rename over the path, the newer file kept by a hard link first: the path is never missing.
 */
export function revertKeeping(ctx: ServiceContext, changes: JournalChange[], opts: KeepOptions): JournalChange[] {
  const out: JournalChange[] = [];
  const lib = libraryDir(ctx);
  let n = 0;
  const step = (c: JournalChange, act: () => void) => {
    opts.wal?.will(c);
    act();
    out.push(c);
  };
  const keepPath = (p: string): string => {
    for (const d of [path.dirname(opts.keepDir), opts.keepDir]) {
      if (!lstatOrNull(d)) step({ kind: 'created-dir', path: d }, () => fs.mkdirSync(d));
    }
    return path.join(opts.keepDir, `${n++}-${path.basename(p)}`);
  };
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const next = changes[i + 1];
    if (c.kind === 'created' && c.linkTarget === undefined && next?.kind === 'moved' && next.from === c.path) {
      const pending = lstatOrNull(next.to) !== undefined;
      if (pending && lstatOrNull(c.path)?.isFile()) {
        const keep = keepPath(c.path);
        opts.wal?.will({ kind: 'created', path: keep });
        try {
          fs.linkSync(c.path, keep);
        } catch {
          fs.copyFileSync(c.path, keep);
        }
        opts.wal?.will({ kind: 'moved', from: next.to, to: next.from });
        fs.renameSync(next.to, next.from);
        out.push({ kind: 'moved', from: c.path, to: keep }, { kind: 'created', path: c.path, digest: treeDigest(c.path) });
        i++;
        continue;
      }
      if (opts.isAfter && !pending) {
        i++;
        continue;
      }
    }
    if (opts.isAfter && !opts.isAfter(c)) continue;
    if (c.kind !== 'created') {
      opts.wal?.will(c);
      out.push(revertChange(c));
      continue;
    }
    const st = lstatOrNull(c.path);
    // Finishing an interrupted undo: what is no longer there was taken out before the crash.
    if (!st && opts.isAfter) continue;
    if (path.dirname(c.path) === lib && st) {
      // A skill the undo takes out of the library: to the trash, where restore and redo find it.
      out.push(...moveToTrash(ctx, path.basename(c.path), 'undone', opts.wal).changes);
    } else if (c.linkTarget !== undefined) {
      step({ kind: 'unlinked', path: c.path, linkTarget: c.linkTarget }, () => removeNoFollow(c.path));
    } else {
      const text = st?.isFile() ? smallText(c.path, st.size) : undefined;
      if (text !== undefined) step({ kind: 'removed-file', path: c.path, content: text }, () => fs.unlinkSync(c.path));
      else {
        const keep = keepPath(c.path);
        step({ kind: 'moved', from: c.path, to: keep }, () => moveAcross(c.path, keep));
      }
    }
  }
  return out;
}

function keepDirFor(ctx: ServiceContext, id: string): string {
  return path.join(ctx.paths.home, 'undone', id);
}

function refuse(reason: MessageRef): never {
  throw fail('conflict', reason.key as never, (reason.params ?? {}) as never);
}

function pick(
  ctx: ServiceContext,
  id: string | undefined,
  action: 'undo' | 'redo',
): { op: OpState; ops: ReturnType<typeof readOperations> } {
  const ops = readOperations(ctx, readJournal(ctx));
  if (id) return { op: operationById(ops, id), ops };
  const op = newest(ops, action);
  if (op) return { op, ops };
  const last = ops.damaged.at(-1);
  if (action === 'undo' && last !== undefined) throw fail('conflict', 'journal.damaged-stop', { line: Number(ops.entries[last]!.line) });
  throw fail('not-found', action === 'undo' ? 'journal.nothing-to-undo' : 'journal.nothing-to-redo');
}

/** Undo one operation (its id, else the newest in effect); call under the library lock. */
export async function undoLocked(ctx: ServiceContext, id?: string): Promise<ActDone> {
  const { op, ops } = pick(ctx, id, 'undo');
  const why = blocker(ctx, ops, op, 'undo');
  if (why) refuse(why);
  const target = op.entry;
  const what = describeOperation(ctx, target);
  const handler = undoHandler(ctx, target.op, target);
  const source = op.effect.changes ?? [];
  if (!handler && !source.length) throw fail('unsupported', 'journal.not-undoable', { op: target.op });
  if (op.effect.partial === true) throw fail('unsupported', 'journal.not-undoable', { op: target.op });
  if (!handler) assertRevertible(ctx, source, entryRoots(target));
  const wal = new WriteAhead(ctx, 'undo', { undoes: target.id });
  let changes: JournalChange[];
  let message = '';
  try {
    if (handler) {
      wal.begin();
      const out = await handler.undo(target);
      message = out.message ?? '';
      changes = out.changes ?? [];
    } else {
      changes = revertKeeping(ctx, [...source].reverse(), { keepDir: keepDirFor(ctx, wal.id), wal });
    }
  } catch (err) {
    wal.close(); // the pending file stays: the next operation or doctor finishes this undo
    throw err;
  }
  const msg: MessageRef = { key: 'journal.undone', params: { what } };
  const entry = wal.commit({
    op: 'undo',
    undoes: target.id,
    summary: message || `Undid ${target.op}${target.summary ? `: ${target.summary}` : ''}`,
    msg,
    changes,
    redoable: handler ? Boolean(handler.redo) : true,
  });
  return { target, entry, what, message: entry.summary ?? '', names: libraryNames(ctx, [...(target.changes ?? []), ...changes]) };
}

/** Redo one undone operation (its id, else the one undone last); call under the library lock. */
export async function redoLocked(ctx: ServiceContext, id?: string): Promise<ActDone> {
  const { op, ops } = pick(ctx, id, 'redo');
  const why = blocker(ctx, ops, op, 'redo');
  if (why) refuse(why);
  const target = op.entry;
  const what = describeOperation(ctx, target);
  const undone = op.effect;
  const handler = undoHandler(ctx, target.op, target);
  if (undone.redoable !== true || (handler && !handler.redo)) throw fail('unsupported', 'journal.not-redoable', { what });
  const source = undone.changes ?? [];
  if (!handler) {
    try {
      assertRevertible(ctx, source, entryRoots(target));
    } catch (err) {
      // the same reasons as undo's, said as a redo's
      const m = (err as { msg?: MessageRef }).msg;
      if (m?.key === 'journal.cannot-undo') throw fail('conflict', 'journal.cannot-redo', m.params as never);
      throw err;
    }
  }
  const wal = new WriteAhead(ctx, 'redo', { redoes: target.id });
  let changes: JournalChange[] = [];
  let message = '';
  try {
    if (handler?.redo) {
      wal.begin();
      message = (await handler.redo(target)).message ?? '';
    } else {
      changes = revertKeeping(ctx, [...source].reverse(), { keepDir: keepDirFor(ctx, wal.id), wal });
    }
  } catch (err) {
    wal.close(); // the pending file stays: the next operation or doctor finishes this redo
    throw err;
  }
  const entry = wal.commit({
    op: 'redo',
    redoes: target.id,
    summary: message || `Redid ${target.op}${target.summary ? `: ${target.summary}` : ''}`,
    msg: { key: 'journal.redone', params: { what } },
    changes,
  });
  return { target, entry, what, message: entry.summary ?? '', names: libraryNames(ctx, [...(target.changes ?? []), ...changes]) };
}

/** For a crashed undo or redo: finish it from what is still in its after-state. */
export async function finishAct(
  ctx: ServiceContext,
  pending: { id?: string; op: string; undoes?: string; redoes?: string },
): Promise<{
  target: JournalEntry | null;
  entry: JournalEntry | null;
  changes: JournalChange[];
  failed: Array<{ path: string; reason: string }>;
}> {
  const ops = readOperations(ctx, readJournal(ctx));
  const targetId = pending.op === 'undo' ? pending.undoes : pending.redoes;
  const op = targetId ? ops.ops.get(targetId) : undefined;
  const failed: Array<{ path: string; reason: string }> = [];
  if (!op)
    return {
      target: null,
      entry: null,
      changes: [],
      failed: [{ path: targetId ?? '', reason: 'the entry it acts on is no longer in the journal' }],
    };
  let changes: JournalChange[] = [];
  let message = '';
  try {
    settleBuildingTrash(ctx);
    const handler = undoHandler(ctx, op.entry.op, op.entry);
    if (handler) message = (pending.op === 'undo' ? await handler.undo(op.entry) : ((await handler.redo?.(op.entry)) ?? {})).message ?? '';
    else
      changes = revertKeeping(ctx, [...(op.effect.changes ?? [])].reverse(), {
        keepDir: keepDirFor(ctx, pending.id ?? 'finished'),
        isAfter: happened,
      });
  } catch (err) {
    failed.push({ path: '', reason: (err as Error).message });
  }
  const what = describeOperation(ctx, op.entry);
  const entry = appendJournal(ctx, {
    id: pending.id,
    op: pending.op,
    [pending.op === 'undo' ? 'undoes' : 'redoes']: op.entry.id,
    summary: message || `${pending.op === 'undo' ? 'Undid' : 'Redid'} ${op.entry.op} (finished after an interruption)`,
    msg: { key: pending.op === 'undo' ? 'journal.undone' : 'journal.redone', params: { what } },
    changes,
    // what the crash cut short is not in `changes`: this record cannot be reverted whole
    partial: true,
  });
  return { target: op.entry, entry, changes, failed };
}
