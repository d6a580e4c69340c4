import path from 'node:path';
import type { Availability, HistoryEntry, JournalEntry, MessageRef } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { findAgent } from '../agents/registry.js';
import { getSettings } from '../settings/settings.js';
import { relativeInside } from '../base/extpath.js';
import { fail } from '../errors.js';
import { DAMAGED_OP } from './journal.js';
import { operationWhat } from '../contract/operation-what.js';

// The journal as operations. Each operation (an import, an export, an edit...) has one entry of its
// own, and may be undone and redone any number of times: each undo or redo appends a record
// (`undo` with `undoes: <id>`, `redo` with `redoes: <id>`) holding the changes it made. The newest
// of those three is the operation's *effect*: what is on disk because of it now. An operation can
// be undone out of order unless an operation in effect after it touched the same files.

/** Entries that are records about operations, never operations themselves. */
const RECORDS = new Set(['undo', 'redo', 'recovered', DAMAGED_OP]);

export const isOperation = (e: JournalEntry): boolean => !RECORDS.has(e.op);

export interface OpState {
  entry: JournalEntry;
  /** Position of its own entry in the journal. */
  index: number;
  state: 'done' | 'undone';
  /** Its newest entry: itself, or its latest undo or redo record. */
  effect: JournalEntry;
  effectIndex: number;
  /** Every path and key it (and its undos and redos) touched, with all their parent folders. */
  touched: Set<string>;
  wide: Set<string>;
}

export interface Operations {
  entries: JournalEntry[];
  ops: Map<string, OpState>;
  /** The operations, newest effect first (what blocker() walks, stopping at the one it checks). */
  byEffect: OpState[];
  /** Position of every damaged line: nothing after one can be trusted to say what is in effect. */
  damaged: number[];
}

/**
 * The paths (and, for operations without file changes, keys such as `approval:pdf`) an entry
 * touched. A folder created only to hold others (the trash, an agent's skills folder) is left
 * out, so two deletes or two exports never depend on each other through it; one inside the
 * library (a skill's new `scripts/`) counts.
 */
function pathsOf(ctx: ServiceContext, e: JournalEntry): string[] {
  const lib = path.join(ctx.paths.home, 'library');
  const out: string[] = [];
  for (const c of e.changes ?? []) {
    if (c.kind === 'created-dir') {
      if (relativeInside(lib, c.path)) out.push(c.path);
    } else if (c.kind === 'moved') out.push(c.from, c.to);
    // a data file's keys, not the file: two operations on different skills' records stay apart
    else if (c.kind === 'patched-json') out.push(...Object.keys(c.before).map((k) => `${c.path}#${k}`));
    else out.push(c.path);
    // a link depends on its target: an export by link on the library skill it points to
    if ((c.kind === 'created' || c.kind === 'unlinked') && c.linkTarget) out.push(path.resolve(path.dirname(c.path), c.linkTarget));
  }
  if (typeof e.skill === 'string' && !e.changes?.length) out.push(`approval:${e.skill}`);
  // a bulk approval or pin: one key per skill it changed
  const kind = e.op === 'pin' || e.op === 'unpin' ? 'pin' : 'approval';
  if (Array.isArray(e.items) && !e.changes?.length)
    for (const it of e.items as Array<{ skill?: unknown }>) if (typeof it.skill === 'string') out.push(`${kind}:${it.skill}`);
  return out;
}

function withParents(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    if (!path.isAbsolute(p)) {
      out.add(p);
      continue;
    }
    for (let d = p; !out.has(d); d = path.dirname(d)) {
      out.add(d);
      if (path.dirname(d) === d) break;
    }
  }
  return out;
}

/** Whether two operations touched a same path, or one a folder holding the other's. */
function overlaps(a: OpState, b: OpState): boolean {
  for (const p of a.touched) if (b.wide.has(p)) return true;
  for (const p of b.touched) if (a.wide.has(p)) return true;
  return false;
}

export function readOperations(ctx: ServiceContext, entries: JournalEntry[]): Operations {
  const ops = new Map<string, OpState>();
  const damaged: number[] = [];
  const paths = new Map<string, string[]>();
  entries.forEach((e, i) => {
    if (e.op === DAMAGED_OP) damaged.push(i);
    const target = e.op === 'undo' ? e.undoes : e.op === 'redo' ? (e.redoes as string | undefined) : undefined;
    if (isOperation(e)) {
      ops.set(e.id, { entry: e, index: i, state: 'done', effect: e, effectIndex: i, touched: new Set(), wide: new Set() });
      paths.set(e.id, pathsOf(ctx, e));
      return;
    }
    const op = target ? ops.get(target) : undefined;
    if (!op) return;
    op.state = e.op === 'undo' ? 'undone' : 'done';
    op.effect = e;
    op.effectIndex = i;
    paths.get(op.entry.id)!.push(...pathsOf(ctx, e));
  });
  for (const [id, op] of ops) {
    op.touched = new Set(paths.get(id));
    op.wide = withParents(op.touched);
  }
  const byEffect = [...ops.values()].sort((a, b) => b.effectIndex - a.effectIndex);
  return { entries, ops, byEffect, damaged };
}

/** The skills an entry names (older export entries name none: their link or copy does). */
export function skillsOf(e: JournalEntry): string[] {
  const listed = ((e.skills as Array<{ name?: unknown }> | undefined) ?? [])
    .map((s) => s.name)
    .filter((n): n is string => typeof n === 'string');
  if (listed.length) return listed;
  if (typeof e.skill === 'string') return [e.skill];
  if (e.op === 'export') {
    const made = (e.changes ?? []).filter((c) => c.kind === 'created');
    return made.map((c) => path.basename(c.path)).slice(-1);
  }
  return [];
}

function agentName(ctx: ServiceContext, id: string): string {
  try {
    return findAgent(ctx.paths.resourcesDir, id, getSettings(ctx).get().customAgents)?.name ?? id;
  } catch {
    return id;
  }
}

/** An operation in a few words, coded: "import of 5 skills", "export of pdf to Claude Code". */
export function describeOperation(ctx: ServiceContext, e: JournalEntry): MessageRef {
  const p = e.op === 'edit' ? (e.msg as MessageRef | undefined)?.params?.path : undefined;
  return operationWhat({
    op: e.op,
    skills: skillsOf(e),
    ...(e.op === 'export' ? { agent: agentName(ctx, typeof e.agent === 'string' ? e.agent : '') } : {}),
    ...(typeof p === 'string' && p ? { path: p } : {}),
    ...(typeof e.project === 'string' ? { project: e.project } : {}),
  });
}

/** The operation `id` names, or a coded refusal. */
export function operationById(ops: Operations, id: string): OpState {
  const op = ops.ops.get(id);
  if (op) return op;
  const rec = ops.entries.find((e) => e.id === id);
  if (rec) throw fail('bad-request', 'journal.not-an-operation', { id, op: rec.op });
  throw fail('not-found', 'journal.unknown-operation', { id });
}

/** Why undoing (or redoing) `op` now would break a later operation; undefined when it would not. */
export function blocker(ctx: ServiceContext, ops: Operations, op: OpState, action: 'undo' | 'redo'): MessageRef | undefined {
  const what = describeOperation(ctx, op.entry);
  const line = ops.damaged.find((i) => i > op.effectIndex);
  if (line !== undefined) return { key: 'journal.damaged-stop', params: { line: Number(ops.entries[line]!.line) } };
  if (action === 'undo' && op.state === 'undone') return { key: 'journal.already-undone', params: { what } };
  if (action === 'redo' && op.state === 'done') return { key: 'journal.not-undone', params: { what } };
  let found: { z: OpState; key: 'journal.undo-blocked' | 'journal.redo-blocked' | 'journal.redo-needs' } | undefined;
  for (const z of ops.byEffect) {
    if (z.effectIndex <= op.effectIndex) break;
    let key: 'journal.undo-blocked' | 'journal.redo-blocked' | 'journal.redo-needs' | undefined;
    if (action === 'undo') key = z.state === 'done' ? 'journal.undo-blocked' : undefined;
    // Redo: a new operation made over the undone state, or one it builds on undone since.
    else if (z.state === 'done' && z.index > op.effectIndex) key = 'journal.redo-blocked';
    else if (z.state === 'undone' && z.index < op.index) key = 'journal.redo-needs';
    if (!key || !overlaps(op, z)) continue;
    found = { z, key }; // the newest such operation: the walk goes newest first
    break;
  }
  if (!found) return undefined;
  return { key: found.key, params: { what, later: describeOperation(ctx, found.z.entry), laterId: found.z.entry.id } };
}

/** The operation undo (or redo) acts on when no id is given: the newest in effect (or undone). */
export function newest(ops: Operations, action: 'undo' | 'redo'): OpState | undefined {
  let best: OpState | undefined;
  for (const op of ops.ops.values()) {
    if (op.state !== (action === 'undo' ? 'done' : 'undone')) continue;
    if (!best || op.effectIndex > best.effectIndex) best = op;
  }
  return best;
}

/** What History shows for each entry: what it is, what it touched, what undo and redo would do. */
export function historyView(
  ctx: ServiceContext,
  ops: Operations,
  entries: JournalEntry[],
  undoable: (e: JournalEntry) => boolean,
): HistoryEntry[] {
  const lib = path.join(ctx.paths.home, 'library');
  return entries.map((e): HistoryEntry => {
    const op = ops.ops.get(e.id);
    if (!op) {
      const of = e.op === 'undo' ? e.undoes : e.op === 'redo' ? (e.redoes as string | undefined) : undefined;
      const target = of ? ops.ops.get(of) : undefined;
      return { ...e, ...(of ? { of } : {}), ...(target ? { what: describeOperation(ctx, target.entry) } : {}) };
    }
    const paths = [
      ...new Set(pathsOf(ctx, e).filter((p) => path.isAbsolute(p) && !relativeInside(lib, p) && !relativeInside(ctx.paths.home, p))),
    ];
    const touched = { skills: skillsOf(e), ...(typeof e.agent === 'string' ? { agent: agentName(ctx, e.agent) } : {}), paths };
    const avail = (action: 'undo' | 'redo'): Availability => {
      const reason = blocker(ctx, ops, op, action);
      if (reason) return { ok: false, reason };
      if (action === 'undo' && !undoable(e)) return { ok: false, reason: { key: 'journal.not-undoable', params: { op: e.op } } };
      if (action === 'redo' && op.effect.redoable !== true)
        return { ok: false, reason: { key: 'journal.not-redoable', params: { what: describeOperation(ctx, e) } } };
      return { ok: true };
    };
    return { ...e, state: op.state, what: describeOperation(ctx, e), touched, undo: avail('undo'), redo: avail('redo') };
  });
}
