import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { JournalChange, MessageRef } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import type { WriteAhead } from '../library/wal.js';
import { copySkillTree, lstatOrNull, treeDigest, LinkOutsideError } from '../library/tree.js';
import { recordFile, readRecordText, parseRecord, scopeRecord, writeRecord, type DeployRecord } from './record.js';
import type { DeployStep } from './types.js';
import type { Placement } from './targets.js';
import { copySignature } from './status.js';
import { isInside } from '../base/extpath.js';
import { changedKeys, pointer } from '../library/json-keys.js';
import { storeBase } from '../sources/store.js';

// Making the steps of a plan, each entry on its own: announced to the write-ahead log before it is
// made, so a crash leaves every entry as before or as chosen (src/library/recover.ts settles it),
// and recorded as journal changes, so one undo reverts the whole apply. A link is made in one
// `symlink`; a copy is built under a hidden name in the same folder and renamed into place; what is
// removed is unlinked (a link, never followed) or moved whole into SkillDock's trash.

export interface ApplyOutcome {
  steps: DeployStep[];
  /** Every change made, the record's changed keys last (`patched-json`): one undo reverts them all. */
  changes: JournalChange[];
}

interface Ctx {
  ctx: ServiceContext;
  wal: WriteAhead;
  changes: JournalChange[];
  /** Where removed folders go: `<home>/trash/deployed/<operation id>`. */
  bucket: string;
  /** Folders SkillDock may create (the scope's root: the user's home, or a project). */
  root: string;
  /** Folders known to be there (checked or made by this apply). */
  present: Set<string>;
}

function act(c: Ctx, change: JournalChange, fn: () => void, into: JournalChange[]): void {
  c.wal.will(change);
  fn();
  into.push(change);
}

/** Create `dir` and every missing parent up to `root` (never above it), each journaled. */
function ensureDir(c: Ctx, dir: string, into: JournalChange[]): void {
  if (c.present.has(dir)) return;
  const missing: string[] = [];
  for (let d = dir; !lstatOrNull(d); d = path.dirname(d)) {
    if (!isInside(d, c.root) || d === path.dirname(d)) throw new Error(`${dir} is outside ${c.root}`);
    missing.unshift(d);
  }
  for (const d of missing) act(c, { kind: 'created-dir', path: d }, () => fs.mkdirSync(d), into);
  c.present.add(dir);
}

/** Move an entry out of an agent's folder: a link is unlinked, anything else moved whole to the trash. */
function takeAway(c: Ctx, p: string, into: JournalChange[]): void {
  const st = fs.lstatSync(p);
  if (st.isSymbolicLink()) {
    const linkTarget = fs.readlinkSync(p);
    act(c, { kind: 'unlinked', path: p, linkTarget }, () => fs.unlinkSync(p), into);
    return;
  }
  const slot = `${randomBytes(3).toString('hex')}-${path.basename(p)}`;
  ensureDirIn(c, c.bucket, into);
  const to = path.join(c.bucket, slot);
  try {
    act(c, { kind: 'moved', from: p, to }, () => fs.renameSync(p, to), into);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    into.pop();
    // another filesystem than SkillDock's home: kept beside it, in a hidden folder no agent lists
    const beside = path.join(path.dirname(p), `.skilldock-removed`, slot);
    ensureDirIn(c, path.dirname(beside), into, path.dirname(p));
    act(c, { kind: 'moved', from: p, to: beside }, () => fs.renameSync(p, beside), into);
  }
}

function ensureDirIn(c: Ctx, dir: string, into: JournalChange[], root = c.ctx.paths.home): void {
  const missing: string[] = [];
  for (let d = dir; !lstatOrNull(d) && isInside(d, root) && d !== root; d = path.dirname(d)) missing.unshift(d);
  for (const d of missing) act(c, { kind: 'created-dir', path: d }, () => fs.mkdirSync(d), into);
}

/** Put a placement on disk (nothing is there). Returns what the record keeps of it. */
function place(c: Ctx, w: Placement, libraryDir: string, into: JournalChange[]) {
  ensureDir(c, w.folder, into);
  const src = path.join(libraryDir, w.skill);
  if (w.mode === 'link') {
    act(c, { kind: 'created', path: w.path, linkTarget: src }, () => fs.symlinkSync(src, w.path, 'dir'), into);
    return { skill: w.skill, folder: w.folder, mode: 'link' as const, linkTarget: src };
  }
  const tmp = path.join(w.folder, `.${w.skill}.skilldock-${randomBytes(4).toString('hex')}`);
  c.wal.will({ kind: 'created', path: tmp });
  try {
    copySkillTree(src, tmp);
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  const digest = treeDigest(tmp);
  // what was placed, kept by digest: the base when an edit of this copy is kept (a 3-way merge)
  const base = storeBase(c.ctx, tmp, digest, c.wal);
  if (base) into.push(base);
  act(c, { kind: 'moved', from: tmp, to: w.path }, () => fs.renameSync(tmp, w.path), []);
  into.push({ kind: 'created', path: w.path, digest });
  return { skill: w.skill, folder: w.folder, mode: 'copy' as const, digest, sig: copySignature(w.path) ?? undefined };
}

/** Why one step failed, in words the user reads (naming the folder, the skill and the agents). */
function failure(step: DeployStep, err: unknown): MessageRef {
  const e = err as NodeJS.ErrnoException;
  const params = { path: step.path, skill: step.skill, folder: step.folder, agents: step.agents };
  if (err instanceof LinkOutsideError) return { key: 'deploy.link-outside', params: { ...params, file: err.rel, target: err.target } };
  if (e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS') return { key: 'deploy.folder-not-writable', params };
  if (e.code === 'EEXIST' || e.code === 'ENOTEMPTY') return { key: 'deploy.appeared', params };
  if (e.code === 'ENOENT') return { key: 'deploy.folder-gone', params };
  return { key: 'deploy.step-failed', params: { ...params, reason: e.message } };
}

/** Undo one step's own changes after it failed midway (newest first), so the entry is as before. */
function undoStep(changes: JournalChange[]): void {
  for (const ch of [...changes].reverse()) {
    try {
      if (ch.kind === 'created') fs.rmSync(ch.path, { recursive: !ch.linkTarget, force: true });
      else if (ch.kind === 'created-dir') fs.rmdirSync(ch.path);
      else if (ch.kind === 'unlinked') fs.symlinkSync(ch.linkTarget, ch.path);
      else if (ch.kind === 'moved') fs.renameSync(ch.to, ch.from);
    } catch {
      // left for doctor: the write-ahead log still names it
    }
  }
}

export interface ApplyInput {
  scopeKey: string;
  /** The scope's root: folders are created only inside it. */
  root: string;
  libraryDir: string;
  steps: DeployStep[];
  wanted: Map<string, Placement>;
  /** The record as it should be after the apply, for `desired` (placed is kept by the apply). */
  desired?: DeployRecord['scopes'][string]['desired'];
  /** Leave `placed` entries of removed skills in the record (the library deleted them: undo brings both back). */
  keepRecordOfRemoved?: boolean;
}

/** The record's keys for one scope (each skill's desired row, each placed path) that differ, with their values before. */
function recordKeys(scopeKey: string, before: DeployRecord, after: DeployRecord, paths: string[]): Record<string, unknown> {
  const keys = new Set<string>();
  for (const r of [before.scopes[scopeKey], after.scopes[scopeKey]])
    for (const skill of Object.keys(r?.desired ?? {})) keys.add(pointer('scopes', scopeKey, 'desired', skill));
  // placed entries change only where a step acted
  for (const p of paths) keys.add(pointer('scopes', scopeKey, 'placed', p));
  return changedKeys(before, after, keys);
}

/** Make the steps (call inside runJournaled). Each step is all or nothing; a failed one becomes `blocked`. */
export function applySteps(ctx: ServiceContext, wal: WriteAhead, input: ApplyInput): ApplyOutcome {
  const recordBefore = readRecordText(ctx);
  const record = parseRecord(ctx, recordBefore);
  const scope = scopeRecord(record, input.scopeKey);
  if (input.desired) scope.desired = input.desired;
  const c: Ctx = {
    ctx,
    wal,
    changes: [],
    bucket: path.join(ctx.paths.home, 'trash', 'deployed', wal.id),
    root: input.root,
    present: new Set(),
  };
  const out: DeployStep[] = [];
  for (const step of input.steps) {
    if (step.action === 'blocked' || step.action === 'conflict') {
      out.push(step);
      continue;
    }
    const mine: JournalChange[] = [];
    try {
      if (step.action === 'replace' || step.action === 'remove') takeAway(c, step.path, mine);
      if (step.action === 'place' || step.action === 'replace')
        scope.placed[step.path] = place(c, input.wanted.get(step.path)!, input.libraryDir, mine);
      else if (!input.keepRecordOfRemoved) delete scope.placed[step.path];
      c.changes.push(...mine);
      out.push(step);
    } catch (err) {
      undoStep(mine);
      out.push({ ...step, action: 'blocked', why: failure(step, err) });
    }
  }
  const text = JSON.stringify(record, null, 1) + '\n';
  if (text !== (recordBefore ?? '')) {
    // only this scope's keys that changed: undoing this operation later leaves other skills' records be
    const before = parseRecord(ctx, recordBefore);
    const patch: JournalChange = {
      kind: 'patched-json',
      path: recordFile(ctx),
      before: recordKeys(
        input.scopeKey,
        before,
        record,
        input.steps.map((st) => st.path),
      ),
    };
    wal.will(patch);
    writeRecord(ctx, record);
    c.changes.push(patch);
  }
  return { steps: out, changes: c.changes };
}
