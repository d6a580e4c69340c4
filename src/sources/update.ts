import fs from 'node:fs';
import path from 'node:path';
import {
  formatMessage,
  type CheckResult,
  type FileChoice,
  type JournalChange,
  type MessageRef,
  type SkillOrigin,
  type UpdateFile,
  type UpdateResult,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail, SkillDockError } from '../errors.js';
import { runJournaled } from '../library/recover.js';
import { followLibrary } from '../library/followers.js';
import { libraryDir, moveToTrash } from '../library/trash.js';
import { copySkillTree, lstatOrNull, treeDigest, LinkOutsideError } from '../library/tree.js';
import { getInventory } from '../security/surface.js';
import type { Checkout, SourcesService } from './service.js';
import { baseDir, readProvenance, storeBase, writeProvenance } from './store.js';
import { skillDirIn } from './confine.js';
import { layoutRefusal } from './git-tree.js';
import { applyMerge, mergeFolders } from './merge-folders.js';
import { SOURCES_PARALLEL } from './limits.js';
import { mapLimit } from '../catalog/scan.js';

// `skilldock update`: per skill a three-way merge per file (base = the upstream files installed,
// kept under <home>/sources/base/<digest>; ours = the library folder; theirs = new upstream).
// The new folder is built in staging and swapped in with a rename; one journal entry per run.

export interface UpdateInput {
  names?: string[];
  all?: boolean;
  take?: 'upstream' | 'mine';
  resolutions?: Record<string, Record<string, FileChoice>>;
}

function says(key: string, params: Record<string, string | number>): { message: string; msg: MessageRef } {
  const msg: MessageRef = { key, params };
  return { message: formatMessage(msg), msg };
}

/** A skill whose new folder is built in staging, waiting to be swapped in. */
interface Staged {
  name: string;
  origin: SkillOrigin;
  dir: string;
  upstream: string;
  oursDigest: string;
  replacedTime: string;
  result: UpdateResult;
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
    else results.push(notUpdated(c, c.status));
  }
  const staged: Staged[] = [];
  const cleanups: Array<() => void> = [];
  try {
    // The new versions are fetched a few at a time; every fetch is let finish (and its folder
    // noted for removal) before the first failure is raised.
    const groups = [...byCheckout(pending, prov).values()];
    const fetched = await mapLimit(groups, SOURCES_PARALLEL, async (list) => {
      try {
        const co = await svc.checkout(svc.parse(prov[list[0]!.skill]!.source.url), list[0]!.toCommit);
        cleanups.push(co.done);
        return co;
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    });
    const failed = fetched.find((x) => x instanceof Error);
    if (failed) throw failed;
    for (const [i, list] of groups.entries()) {
      const co = fetched[i] as Checkout;
      for (const c of list) {
        const scratch = path.dirname(co.dir);
        const made = stageSkill(ctx, input, c.skill, prov[c.skill]!, co, {
          upstream: path.join(scratch, `up-${staged.length}-${results.length}`),
          dir: path.join(scratch, `new-${staged.length}`),
        });
        if ('refused' in made) results.push(made.refused);
        else staged.push(made.staged);
      }
    }
    if (!staged.length) return { results: sortResults(results) };
    const journalId = await swapIn(ctx, staged);
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

/** The result for a skill the check found nothing to update in (up to date, unreachable, ...). */
function notUpdated(c: CheckResult, status: UpdateResult['status']): UpdateResult {
  return {
    skill: c.skill,
    source: c.source,
    status,
    fromCommit: c.fromCommit,
    ...(c.toCommit ? { toCommit: c.toCommit } : {}),
    files: [],
    surfaceChanged: false,
    message: c.message,
    msg: c.msg,
  };
}

/** One checkout per (source, commit). */
function byCheckout(pending: CheckResult[], prov: Record<string, SkillOrigin>): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const c of pending) {
    const k = `${prov[c.skill]!.source.url}\n${c.toCommit}`;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  return groups;
}

/**
 * Merge one skill with its new upstream in staging: refused (a link out of the skill, no base, or
 * conflicts left unresolved) or staged as a new folder at `at.dir`, the library left as it is.
 */
function stageSkill(
  ctx: ServiceContext,
  input: UpdateInput,
  skill: string,
  origin: SkillOrigin,
  co: Checkout,
  at: { upstream: string; dir: string },
): { refused: UpdateResult } | { staged: Staged } {
  const lib = path.join(libraryDir(ctx), skill);
  const given = origin.source.given;
  const refused = (files: UpdateFile[], key: string, params: Record<string, string | number>) => ({
    refused: {
      skill,
      source: given,
      fromCommit: origin.commit,
      toCommit: co.commit,
      status: 'conflict' as const,
      files,
      surfaceChanged: false,
      ...says(key, params),
    },
  });
  try {
    // The record's path may have been edited on disk: only a folder really inside the checkout.
    const upRaw = skillDirIn(co.dir, origin.path, given);
    const twins = co.files && layoutRefusal(co.files, origin.path, given);
    if (twins) throw twins;
    copySkillTree(upRaw, at.upstream); // refuses links out of the skill
  } catch (err) {
    if (err instanceof SkillDockError && err.msg) return refused([], err.msg.key, { ...(err.msg.params as Record<string, string>), skill });
    if (!(err instanceof LinkOutsideError)) throw err;
    return refused([], 'sources.update.link-out', { skill, source: given, path: err.rel, target: err.target });
  }
  const base = baseDir(ctx, origin.upstreamDigest);
  if (!lstatOrNull(base)) return refused([], 'sources.update.no-base', { skill, source: given });
  const oursDigest = treeDigest(lib);
  const p = mergeFolders(base, lib, at.upstream, input.resolutions?.[skill] ?? {}, input.take);
  if (p.conflicts) return refused(p.files, 'sources.update.conflict', { skill, source: given, count: p.conflicts });
  copySkillTree(lib, at.dir);
  applyMerge(at.dir, at.upstream, p.ops);
  const surfaceChanged = getInventory(lib).digest !== getInventory(at.dir).digest;
  const key = surfaceChanged ? 'sources.update.updated-approve' : 'sources.update.updated';
  const result: UpdateResult = {
    skill,
    source: given,
    fromCommit: origin.commit,
    toCommit: co.commit,
    status: 'updated',
    files: p.files,
    surfaceChanged,
    ...says(key, { skill, source: given, from: origin.commit.slice(0, 7), to: co.commit.slice(0, 7) }),
  };
  const staged = {
    name: skill,
    origin: { ...origin, commit: co.commit, path: origin.path },
    dir: at.dir,
    upstream: at.upstream,
    oursDigest,
    replacedTime: origin.time,
    result,
  };
  return { staged };
}

/**
 * Swap the staged folders in, all under the library lock, one journal entry. A skill changed in the
 * library since it was staged is left alone (its result turns to a conflict). Returns the journal id,
 * or undefined when nothing was swapped.
 */
async function swapIn(ctx: ServiceContext, staged: Staged[]): Promise<string | undefined> {
  // The one write-ahead path (src/library/recover.ts): a crash midway is rolled back whole.
  return runJournaled(ctx, 'update', (wal) => {
    const changes: JournalChange[] = [];
    const records: Record<string, SkillOrigin> = {};
    for (const s of staged) {
      const lib = path.join(libraryDir(ctx), s.name);
      if (!lstatOrNull(lib) || treeDigest(lib) !== s.oursDigest) {
        s.result.status = 'conflict';
        Object.assign(s.result, says('sources.update.changed-meanwhile', { skill: s.name, source: s.origin.source.given }));
        continue;
      }
      changes.push(...moveToTrash(ctx, s.name, 'replaced', wal).changes);
      wal.will({ kind: 'created', path: lib });
      fs.renameSync(s.dir, lib);
      const installedDigest = treeDigest(lib);
      changes.push({ kind: 'created' as const, path: lib, digest: installedDigest });
      const upstreamDigest = treeDigest(s.upstream);
      // A base copy this update made goes with it on undo, like the folders it swapped.
      const base = storeBase(ctx, s.upstream, upstreamDigest, wal);
      if (base) changes.push(base);
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
    // copies deployed to agents' folders get the new version in the same operation
    changes.push(...followLibrary(ctx, wal, { op: 'update', names: Object.keys(records) }));
    writeProvenance(ctx, records);
    const names = Object.keys(records);
    return wal.commit({
      op: 'update',
      summary: `updated ${names.join(', ')}`,
      changes,
      skills: names.map((n) => ({ name: n, status: 'updated' })),
    }).id;
  });
}

function sortResults(r: UpdateResult[]): UpdateResult[] {
  return r.sort((a, b) => a.skill.localeCompare(b.skill));
}
