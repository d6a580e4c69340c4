import fs from 'node:fs';
import path from 'node:path';
import {
  formatMessage,
  type CheckResult,
  type FileChoice,
  type MessageRef,
  type SkillOrigin,
  type UpdateFile,
  type UpdateResult,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { appendJournal, libraryLock } from '../library/journal.js';
import { libraryDir, moveToTrash } from '../library/trash.js';
import { copySkillTree, lstatOrNull, treeDigest, LinkOutsideError } from '../library/tree.js';
import { getInventory } from '../security/surface.js';
import type { SourcesService } from './service.js';
import { baseDir, readProvenance, storeBase, writeProvenance } from './store.js';
import { fileMap } from './files.js';
import { asText, merge3 } from './merge.js';

// `skilldock update`: per skill a three-way merge per file (base = the upstream files installed,
// kept under <home>/sources/base/<digest>; ours = the library folder; theirs = new upstream).
// The new folder is built in staging and swapped in with a rename; one journal entry per run.

export interface UpdateInput {
  names?: string[];
  all?: boolean;
  take?: 'upstream' | 'mine';
  resolutions?: Record<string, Record<string, FileChoice>>;
}

type Op = { path: string; kind: 'upstream' } | { path: string; kind: 'delete' } | { path: string; kind: 'write'; text: string };

interface Plan {
  files: UpdateFile[];
  ops: Op[];
  conflicts: number;
}

function read(dir: string, rel: string): Buffer | null {
  const p = path.join(dir, ...rel.split('/'));
  const st = lstatOrNull(p);
  if (!st || st.isSymbolicLink() || !st.isFile()) return null;
  return fs.readFileSync(p);
}

/** Decide every file of one skill. */
function plan(base: string, ours: string, theirs: string, choices: Record<string, FileChoice>, take?: 'upstream' | 'mine'): Plan {
  const B = fileMap(base);
  const O = fileMap(ours);
  const T = fileMap(theirs);
  const paths = [...new Set([...B.keys(), ...O.keys(), ...T.keys()])].sort();
  const out: Plan = { files: [], ops: [], conflicts: 0 };
  const takeUpstream = (p: string, b: string | undefined, t: string | undefined): void => {
    if (t === undefined) out.ops.push({ path: p, kind: 'delete' });
    else out.ops.push({ path: p, kind: 'upstream' });
    out.files.push({ path: p, action: t === undefined ? 'removed' : b === undefined ? 'added' : 'changed' });
  };
  for (const p of paths) {
    const b = B.get(p);
    const o = O.get(p);
    const t = T.get(p);
    if (o === t) continue; // same on both sides (untouched, or the same change)
    if (o === b) {
      takeUpstream(p, b, t);
      continue;
    }
    if (t === b) {
      out.files.push({ path: p, action: 'kept' }); // changed or created by the user; upstream did not touch it
      continue;
    }
    // changed on both sides
    const bt = b === undefined ? '' : b.startsWith('link:') ? null : asText(read(base, p) ?? Buffer.alloc(0));
    const ot = o === undefined ? undefined : o.startsWith('link:') ? null : asText(read(ours, p) ?? Buffer.alloc(0));
    const tt = t === undefined ? undefined : t.startsWith('link:') ? null : asText(read(theirs, p) ?? Buffer.alloc(0));
    let conflict: UpdateFile['conflict'];
    let merged: string | undefined;
    if (t === undefined) conflict = 'deleted-upstream';
    else if (o === undefined) conflict = 'deleted-locally';
    else if (bt === null || ot === null || tt === null || ot === undefined || tt === undefined) conflict = 'binary';
    else {
      const m = merge3(bt, ot, tt);
      if (m.clean) {
        out.ops.push({ path: p, kind: 'write', text: m.text });
        out.files.push({ path: p, action: 'merged' });
        continue;
      }
      conflict = 'both-changed';
      merged = m.text;
    }
    const choice = choices[p] ?? take;
    if (choice === 'upstream') {
      if (t === undefined) out.ops.push({ path: p, kind: 'delete' });
      else out.ops.push({ path: p, kind: 'upstream' });
      out.files.push({ path: p, action: 'resolved' });
    } else if (choice === 'mine') {
      out.files.push({ path: p, action: 'resolved' });
    } else if (choice && typeof choice === 'object') {
      out.ops.push({ path: p, kind: 'write', text: choice.content });
      out.files.push({ path: p, action: 'resolved' });
    } else {
      out.conflicts++;
      out.files.push({
        path: p,
        action: 'conflict',
        conflict,
        ...(typeof bt === 'string' && b !== undefined ? { base: bt } : {}),
        ...(typeof ot === 'string' ? { mine: ot } : {}),
        ...(typeof tt === 'string' ? { upstream: tt } : {}),
        ...(merged !== undefined ? { merged } : {}),
      });
    }
  }
  return out;
}

/** Apply the ops to `dest` (a staging copy of ours). Never writes through a link. */
function apply(dest: string, theirs: string, ops: Op[]): void {
  for (const op of ops) {
    const parts = op.path.split('/');
    let cur = dest;
    for (const part of parts.slice(0, -1)) {
      cur = path.join(cur, part);
      const st = lstatOrNull(cur);
      if (st?.isSymbolicLink()) throw new LinkOutsideError(op.path, fs.readlinkSync(cur));
      if (!st) fs.mkdirSync(cur);
    }
    const target = path.join(dest, ...parts);
    const st = lstatOrNull(target);
    if (st) fs.rmSync(target, { recursive: st.isDirectory(), force: true });
    if (op.kind === 'delete') continue;
    if (op.kind === 'write') fs.writeFileSync(target, op.text);
    else {
      const from = path.join(theirs, ...parts);
      const fst = fs.lstatSync(from);
      if (fst.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), target);
      else {
        fs.copyFileSync(from, target);
        fs.chmodSync(target, fst.mode & 0o777);
      }
    }
  }
}

function says(key: string, params: Record<string, string | number>): { message: string; msg: MessageRef } {
  const msg: MessageRef = { key, params };
  return { message: formatMessage(msg), msg };
}

export async function runUpdate(
  ctx: ServiceContext,
  svc: SourcesService,
  input: UpdateInput,
): Promise<{ results: UpdateResult[]; journalId?: string }> {
  if (!input.all && !input.names?.length) throw fail('bad-request', 'sources.update.which', {});
  const checked = await svc.check(input.all ? undefined : input.names);
  const prov = readProvenance(ctx, libraryDir(ctx));
  const results: UpdateResult[] = [];
  const pending: CheckResult[] = [];
  for (const c of checked.results) {
    if (c.status === 'update-available') pending.push(c);
    else
      results.push({
        skill: c.skill,
        source: c.source,
        status: c.status,
        fromCommit: c.fromCommit,
        ...(c.toCommit ? { toCommit: c.toCommit } : {}),
        files: [],
        surfaceChanged: false,
        message: c.message,
        msg: c.msg,
      });
  }
  // One checkout per (source, commit).
  const groups = new Map<string, CheckResult[]>();
  for (const c of pending) {
    const k = `${prov[c.skill]!.source.url}\n${c.toCommit}`;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  const staged: Array<{
    name: string;
    origin: SkillOrigin;
    dir: string;
    upstream: string;
    oursDigest: string;
    replacedTime: string;
    result: UpdateResult;
  }> = [];
  const cleanups: Array<() => void> = [];
  try {
    for (const list of groups.values()) {
      const first = prov[list[0]!.skill]!;
      const co = await svc.checkout(svc.parse(first.source.url), list[0]!.toCommit);
      cleanups.push(co.done);
      for (const c of list) {
        const origin = prov[c.skill]!;
        const lib = path.join(libraryDir(ctx), c.skill);
        const upRaw = path.join(co.dir, ...origin.path.split('/').filter(Boolean));
        const common = { skill: c.skill, source: origin.source.given, fromCommit: origin.commit, toCommit: co.commit };
        const upstream = path.join(path.dirname(co.dir), `up-${staged.length}-${results.length}`);
        try {
          copySkillTree(upRaw, upstream); // refuses links out of the skill
        } catch (err) {
          if (!(err instanceof LinkOutsideError)) throw err;
          results.push({
            ...common,
            status: 'conflict',
            files: [],
            surfaceChanged: false,
            ...says('sources.update.link-out', { skill: c.skill, source: origin.source.given, path: err.rel, target: err.target }),
          });
          continue;
        }
        const base = baseDir(ctx, origin.upstreamDigest);
        if (!lstatOrNull(base)) {
          results.push({
            ...common,
            status: 'conflict',
            files: [],
            surfaceChanged: false,
            ...says('sources.update.no-base', { skill: c.skill, source: origin.source.given }),
          });
          continue;
        }
        const oursDigest = treeDigest(lib);
        const p = plan(base, lib, upstream, input.resolutions?.[c.skill] ?? {}, input.take);
        if (p.conflicts) {
          results.push({
            ...common,
            status: 'conflict',
            files: p.files,
            surfaceChanged: false,
            ...says('sources.update.conflict', { skill: c.skill, source: origin.source.given, count: p.conflicts }),
          });
          continue;
        }
        const dir = path.join(path.dirname(co.dir), `new-${staged.length}`);
        copySkillTree(lib, dir);
        apply(dir, upstream, p.ops);
        const surfaceChanged = getInventory(lib).digest !== getInventory(dir).digest;
        const key = surfaceChanged ? 'sources.update.updated-approve' : 'sources.update.updated';
        const result: UpdateResult = {
          ...common,
          status: 'updated',
          files: p.files,
          surfaceChanged,
          ...says(key, { skill: c.skill, source: origin.source.given, from: origin.commit.slice(0, 7), to: co.commit.slice(0, 7) }),
        };
        staged.push({
          name: c.skill,
          origin: { ...origin, commit: co.commit, path: origin.path },
          dir,
          upstream,
          oursDigest,
          replacedTime: origin.time,
          result,
        });
      }
    }
    if (!staged.length) return { results: sortResults(results) };
    // Swap in, all under the library lock, one journal entry.
    const journalId = await libraryLock(ctx).runAsync(async () => {
      const changes = [];
      const records: Record<string, SkillOrigin> = {};
      for (const s of staged) {
        const lib = path.join(libraryDir(ctx), s.name);
        if (!lstatOrNull(lib) || treeDigest(lib) !== s.oursDigest) {
          s.result.status = 'conflict';
          Object.assign(s.result, says('sources.update.changed-meanwhile', { skill: s.name, source: s.origin.source.given }));
          continue;
        }
        changes.push(...moveToTrash(ctx, s.name, 'replaced').changes);
        fs.renameSync(s.dir, lib);
        const installedDigest = treeDigest(lib);
        changes.push({ kind: 'created' as const, path: lib, digest: installedDigest });
        const upstreamDigest = treeDigest(s.upstream);
        storeBase(ctx, s.upstream, upstreamDigest);
        records[s.name] = {
          ...s.origin,
          upstreamDigest,
          installedDigest,
          replacedDigest: s.oursDigest,
          replacedTime: s.replacedTime,
          time: new Date().toISOString(),
        };
      }
      if (!changes.length) return undefined;
      writeProvenance(ctx, records);
      const names = Object.keys(records);
      return appendJournal(ctx, {
        op: 'update',
        summary: `updated ${names.join(', ')}`,
        changes,
        skills: names.map((n) => ({ name: n, status: 'updated' })),
      }).id;
    });
    results.push(...staged.map((s) => s.result));
    if (journalId)
      ctx.events.emit({
        type: 'library-changed',
        names: staged.filter((s) => s.result.status === 'updated').map((s) => s.name),
        op: 'update',
      });
    return { results: sortResults(results), ...(journalId ? { journalId } : {}) };
  } finally {
    for (const c of cleanups) c();
  }
}

function sortResults(r: UpdateResult[]): UpdateResult[] {
  return r.sort((a, b) => a.skill.localeCompare(b.skill));
}
