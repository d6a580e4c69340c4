import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ImportSummary, MessageRef, SkillOrigin } from '../contract/index.js';
import { SkillDockError } from '../errors.js';
import type { ServiceContext } from '../service-context.js';
import { libraryDir } from '../library/trash.js';
import { isInside } from '../base/extpath.js';
import { treeDigest } from '../library/tree.js';
import { NO_BASE, baseDir, storeBase, writeProvenance } from './store.js';
import type { ParsedSource } from './parse.js';
import { isPlainRepoPath } from './confine.js';

// Skills installed by the reference `skills` CLI carry their source in its lock files: a project's
// `skills-lock.json` (v1: source, sourceUrl, ref, sourceType, skillPath, computedHash = SHA-256 of
// the skill's files) and the user's `~/.agents/.skill-lock.json` (v3: source, sourceType,
// sourceUrl, skillPath, skillFolderHash = the git tree id of the skill's folder upstream). When
// such a skill is adopted or imported, its record becomes SkillDock provenance, so it can be
// checked and updated here. Read only here: src/deploy/lock-file.ts writes a project's lock, on request.
//
// Neither lock names a commit. The merge base is therefore the folder as adopted when its hash
// proves it is exactly what was installed, and an empty base otherwise (then every file both
// sides changed is a conflict the user settles: local edits are never overwritten silently).
// The record's commit stays empty until the first update, so `check` always compares content.

const MAX_LOCK_BYTES = 1024 * 1024;

const EntrySchema = z
  .object({
    source: z.string().min(1),
    sourceUrl: z.string().optional(),
    sourceType: z.string().optional(),
    ref: z.string().optional(),
    skillPath: z.string().optional(),
    computedHash: z.string().optional(),
    skillFolderHash: z.string().optional(),
  })
  .passthrough();
type LockEntry = z.infer<typeof EntrySchema>;

const LockSchema = z.object({ version: z.number(), skills: z.record(z.string(), z.unknown()) });

/** Sources SkillDock can fetch (git hosts and git URLs, local repositories); others are skipped. */
const FETCHABLE = new Set(['github', 'gitlab', 'git', 'local']);

function readLock(file: string): Map<string, LockEntry> {
  const out = new Map<string, LockEntry>();
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > MAX_LOCK_BYTES) return out;
    const lock = LockSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (!lock.success) return out;
    for (const [name, raw] of Object.entries(lock.data.skills)) {
      const e = EntrySchema.safeParse(raw);
      if (e.success) out.set(name, e.data);
    }
  } catch {
    // missing or unreadable: no records from it
  }
  return out;
}

/** The reference CLI's `computedHash`: SHA-256 over each file's relative path then bytes, in path order. */
export function lockContentHash(dir: string): string {
  const files: Array<{ rel: string; abs: string }> = [];
  const stack = [{ abs: dir, rel: '' }];
  while (stack.length) {
    const { abs, rel } = stack.pop()!;
    for (const d of fs.readdirSync(abs, { withFileTypes: true })) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (d.name !== '.git' && d.name !== 'node_modules') stack.push({ abs: path.join(abs, d.name), rel: r });
      } else if (d.isFile()) files.push({ rel: r, abs: path.join(abs, d.name) });
    }
  }
  files.sort((a, b) => a.rel.localeCompare(b.rel));
  const h = createHash('sha256');
  for (const f of files) {
    h.update(f.rel);
    h.update(fs.readFileSync(f.abs));
  }
  return h.digest('hex');
}

/** The git tree id of a folder (what GitHub reports as the skill folder's hash). */
export function gitTreeId(dir: string): string {
  const entries: Buffer[] = [];
  const names = fs.readdirSync(dir, { withFileTypes: true }).filter((d) => d.name !== '.git');
  // git orders a tree by name, a folder's name as if it ended in '/'
  names.sort((a, b) =>
    Buffer.compare(Buffer.from(a.name + (a.isDirectory() ? '/' : '')), Buffer.from(b.name + (b.isDirectory() ? '/' : ''))),
  );
  for (const d of names) {
    const abs = path.join(dir, d.name);
    let mode: string;
    let id: string;
    if (d.isDirectory()) {
      mode = '40000';
      id = gitTreeId(abs);
    } else if (d.isSymbolicLink()) {
      mode = '120000';
      id = gitObjectId('blob', Buffer.from(fs.readlinkSync(abs)));
    } else if (d.isFile()) {
      mode = fs.statSync(abs).mode & 0o111 ? '100755' : '100644';
      id = gitObjectId('blob', fs.readFileSync(abs));
    } else continue;
    entries.push(Buffer.concat([Buffer.from(`${mode} ${d.name}\0`), Buffer.from(id, 'hex')]));
  }
  return gitObjectId('tree', Buffer.concat(entries));
}

function gitObjectId(type: string, body: Buffer): string {
  return createHash('sha1').update(`${type} ${body.length}\0`).update(body).digest('hex');
}

/** The lock files that may describe a skill folder: a project's, up to three levels up, and the user's. */
function locksFor(folder: string, userHome: string): string[] {
  const out: string[] = [];
  let dir = path.dirname(folder);
  for (let i = 0; i < 3 && dir !== path.dirname(dir); i++) {
    dir = path.dirname(dir);
    out.push(path.join(dir, 'skills-lock.json'));
    if (dir === userHome) break;
  }
  if (isInside(folder, userHome)) out.push(path.join(userHome, '.agents', '.skill-lock.json'));
  return out;
}

export interface LockOrigin {
  lockFile: string;
  entry: LockEntry;
}

/** The lock record of the skill folder `folder` (named `name` there), if a lock file has one. */
export function findLockOrigin(
  folder: string,
  name: string,
  userHome: string,
  cache = new Map<string, Map<string, LockEntry>>(),
): LockOrigin | null {
  for (const lockFile of locksFor(folder, userHome)) {
    let lock = cache.get(lockFile);
    if (!lock) cache.set(lockFile, (lock = readLock(lockFile)));
    const entry = lock.get(name);
    if (entry && FETCHABLE.has(entry.sourceType ?? 'git')) return { lockFile, entry };
  }
  return null;
}

/** The source as the lock gives it, in words `parseSource` reads. */
function sourceWords(o: LockOrigin): string {
  const { entry } = o;
  if (entry.sourceType === 'local') {
    return path.isAbsolute(entry.source) ? entry.source : path.resolve(path.dirname(o.lockFile), entry.source);
  }
  return entry.sourceUrl ?? entry.source;
}

/** Was the folder left exactly as the lock says it was installed? */
function untouched(dir: string, entry: LockEntry): boolean {
  if (entry.computedHash) return lockContentHash(dir) === entry.computedHash;
  if (entry.skillFolderHash) return gitTreeId(dir) === entry.skillFolderHash;
  return false;
}

/**
 * After an import or adopt: every skill that came from a folder a lock file describes, and has no
 * provenance yet, gets a record built from the lock. Returns the library names recorded.
 */
export function recordLockOrigins(
  ctx: ServiceContext,
  summary: ImportSummary,
  parse: (source: string, ref?: string) => ParsedSource,
): string[] {
  const recorded: Record<string, SkillOrigin> = {};
  const locks = new Map<string, Map<string, LockEntry>>(); // each lock file read once per import
  for (const r of summary.results) {
    if (!r.libraryName || !['imported', 'replaced', 'kept-both'].includes(r.status) || !path.isAbsolute(r.source)) continue;
    const origin = findLockOrigin(r.source, path.basename(r.source), ctx.paths.userHome, locks);
    if (!origin) continue;
    // A source SkillDock cannot read, a ref git could take for an option, or a `skillPath` that
    // climbs out (`../../tmp/x/SKILL.md`) or is absolute (check and update would read outside the
    // checkout): the skill stays local-only, and the user is told why.
    const refused = (reason: MessageRef) => {
      r.notices = [...(r.notices ?? []), { key: 'sources.lock-refused', params: { skill: r.libraryName!, lock: origin.lockFile, reason } }];
    };
    let p: ParsedSource;
    try {
      p = parse(sourceWords(origin), origin.entry.ref);
    } catch (err) {
      if (err instanceof SkillDockError && err.msg) refused(err.msg);
      continue;
    }
    if (p.kind !== 'git') continue;
    const sub = path.posix.dirname(origin.entry.skillPath ?? 'SKILL.md');
    const skillDir = sub === '.' ? p.subpath : sub;
    if (!isPlainRepoPath(skillDir)) {
      refused({ key: 'sources.path-outside', params: { path: skillDir, source: p.given } });
      continue;
    }
    const lib = path.join(libraryDir(ctx), r.libraryName);
    const real = fs.realpathSync(lib);
    let upstreamDigest: string;
    if (untouched(real, origin.entry)) {
      upstreamDigest = treeDigest(real);
      storeBase(ctx, real, upstreamDigest);
    } else {
      // Edited since install (or no hash to tell): no base, so nothing of the user's is overwritten.
      upstreamDigest = NO_BASE;
      fs.mkdirSync(baseDir(ctx, NO_BASE), { recursive: true });
    }
    recorded[r.libraryName] = {
      source: { given: p.given, kind: 'git', url: p.url, subpath: p.subpath, ...(p.ref ? { ref: p.ref } : {}) },
      commit: '',
      path: skillDir,
      upstreamDigest,
      installedDigest: treeDigest(lib),
      time: new Date().toISOString(),
      via: origin.lockFile,
    };
  }
  if (Object.keys(recorded).length) writeProvenance(ctx, recorded);
  return Object.keys(recorded);
}
