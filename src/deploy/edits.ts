import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { randomBytes } from 'node:crypto';
import type { FileChoice, JournalChange, UpdateFile } from '../contract/index.js';
import { runJournaled } from '../library/recover.js';
import { followLibrary } from '../library/followers.js';
import { libraryDir, moveToTrash } from '../library/trash.js';
import { copySkillTree, treeDigest } from '../library/tree.js';
import { applyMerge, mergeFolders } from '../sources/merge-folders.js';
import { baseDir, NO_BASE } from '../sources/store.js';
import { readRecord, scopeRecord } from './record.js';
import { USER_SCOPE, userScope } from './scopes.js';
import { getDeploy, JOURNAL_DEPLOY } from './service.js';

// A copy edited in place: its diff against the library's version, and keeping the edit (merged
// into the library's version through the 3-way merge of src/sources, in one journaled operation).

const MAX_TEXT = 256 * 1024;

function files(root: string, rel = '', out = new Map<string, string>()): Map<string, string> {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const d of names) {
    const r = rel ? `${rel}/${d.name}` : d.name;
    if (d.isDirectory()) files(root, r, out);
    else if (d.isFile()) {
      const p = path.join(root, r);
      out.set(r, fs.statSync(p).size > MAX_TEXT ? '(too large to show)' : fs.readFileSync(p, 'utf8'));
    }
  }
  return out;
}

function placedCopy(ctx: ServiceContext, p: string) {
  const rec = scopeRecord(readRecord(ctx), USER_SCOPE).placed[path.resolve(p)];
  if (!rec || rec.mode !== 'copy') throw fail('not-found', 'deploy.not-a-copy', { path: p });
  return rec;
}

export function copyDiff(ctx: ServiceContext, p: string) {
  const rec = placedCopy(ctx, p);
  const lib = files(path.join(userScope(ctx).libraryDir, rec.skill));
  const mine = files(path.resolve(p));
  const out: Array<{ file: string; library: string | null; deployed: string | null }> = [];
  for (const f of [...new Set([...lib.keys(), ...mine.keys()])].sort()) {
    const a = lib.get(f) ?? null;
    const b = mine.get(f) ?? null;
    if (a !== b) out.push({ file: f, library: a, deployed: b });
  }
  return { path: path.resolve(p), skill: rec.skill, files: out };
}

export interface AdoptEditResult {
  skill: string;
  /** Set when the edit was kept (one journal entry: the library's new version and the copies). */
  journalId?: string;
  /** Every file the merge decided; `conflict` ones (with the three versions and the marked text) stop it. */
  files: UpdateFile[];
  conflicts: number;
}

/** The version the copy was placed from: kept by digest when placed, else the library's if unchanged since. */
function baseOf(ctx: ServiceContext, rec: { digest?: string | undefined }, libDir: string): string {
  if (rec.digest && fs.existsSync(baseDir(ctx, rec.digest))) return baseDir(ctx, rec.digest);
  if (rec.digest && treeDigest(libDir) === rec.digest) return libDir;
  // unknown: every file changed on both sides is a conflict, never overwritten
  return baseDir(ctx, NO_BASE);
}

/**
 * Keep the edit of a copy: the library's version and the copy merged against the version that was
 * placed (3-way, as a source update merges), so edits made in the library since are kept too. A
 * conflict stops it with the three versions, until `resolutions` settle each file (`mine`: the
 * library's, `upstream`: the copy's, or the text). One journal entry (one undo): the library's
 * version to the trash and the merged one in its place, every copy refreshed, this one included.
 */
export async function adoptEdit(ctx: ServiceContext, p: string, resolutions: Record<string, FileChoice> = {}): Promise<AdoptEditResult> {
  const abs = path.resolve(p);
  const rec = placedCopy(ctx, abs);
  const skill = rec.skill;
  const deploy = getDeploy(ctx);
  const out = await runJournaled(ctx, JOURNAL_DEPLOY, (wal): AdoptEditResult => {
    const st = deploy.status().entries.find((e) => e.path === abs);
    if (st?.reason !== 'edited') throw fail('conflict', 'deploy.not-edited', { path: abs });
    const lib = libraryDir(ctx);
    const libDir = path.join(lib, skill);
    const m = mergeFolders(baseOf(ctx, rec, libDir), libDir, abs, resolutions);
    if (m.conflicts) return { skill, files: m.files, conflicts: m.conflicts };
    const changes: JournalChange[] = [];
    // the merged version is built beside the library's (hidden: nobody lists it) and renamed in
    const tmp = path.join(lib, `.${skill}.keep-${randomBytes(4).toString('hex')}`);
    wal.will({ kind: 'created', path: tmp });
    copySkillTree(libDir, tmp);
    applyMerge(tmp, abs, m.ops);
    changes.push(...moveToTrash(ctx, skill, 'replaced', wal).changes);
    wal.will({ kind: 'moved', from: tmp, to: libDir });
    fs.renameSync(tmp, libDir);
    changes.push({ kind: 'created', path: libDir, digest: treeDigest(libDir) });
    // copies as SkillDock left them get the new version; the edited one is put back to it (the edit is in it)
    changes.push(...followLibrary(ctx, wal, { op: 'update', names: [skill] }));
    changes.push(...deploy.applyInside(wal, { restore: [abs] }, new Set([skill])).changes);
    const entry = wal.commit({
      op: JOURNAL_DEPLOY,
      summary: `kept the edit of ${abs} as the library's ${skill}`,
      changes,
      scope: USER_SCOPE,
      skills: [{ name: skill }],
    });
    return { skill, journalId: entry.id, files: m.files, conflicts: 0 };
  });
  if (out.journalId) {
    ctx.events.emit({ type: 'library-changed', names: [skill], op: 'replace' });
    ctx.events.emit({ type: 'deploy-changed', folders: [path.dirname(abs)] });
  }
  return out;
}
