import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SkillOrigin } from '../contract/index.js';
import { fail } from '../errors.js';

// A project's `skills-lock.json`, byte for byte as the reference `skills` CLI (npm `skills`, 1.7.4)
// writes it, so a teammate using either tool reads the other's file and `git diff` shows only real
// changes: `{"version": 1, "skills": {...}}`, skill names sorted, each entry's keys in the order
// source, sourceUrl, ref, sourceType, skillPath, computedHash (absent ones left out), two-space
// JSON and a final newline. `computedHash` is the reference's content hash (src/sources/lock.ts).
//
// No commit is written: the reference CLI pins content by hash, and a `ref` on a plain git URL
// makes its restore fail (it clones `<url>#<ref>` as the URL). A ref is written only where the
// reference itself writes one (GitHub and GitLab sources added at a ref).

export const LOCK_FILE = 'skills-lock.json';
const MAX_LOCK_BYTES = 1024 * 1024;

export interface ProjectLockEntry {
  source: string;
  sourceUrl?: string;
  ref?: string;
  sourceType: string;
  skillPath?: string;
  computedHash?: string;
  [extra: string]: unknown;
}

const EntrySchema = z
  .object({
    source: z.string().min(1),
    sourceUrl: z.string().optional(),
    ref: z.string().optional(),
    sourceType: z.string().min(1),
    skillPath: z.string().optional(),
    computedHash: z.string().optional(),
  })
  .passthrough();
const LockSchema = z.object({ version: z.number().int().min(1), skills: z.record(z.string(), EntrySchema) }).passthrough();

export interface ProjectLock {
  file: string;
  /** The bytes on disk (null: no lock yet). */
  raw: string | null;
  version: number;
  skills: Record<string, ProjectLockEntry>;
}

/** Read the project's lock; a missing file is an empty lock, a file that cannot be read is refused (never overwritten). */
export function readProjectLock(project: string): ProjectLock {
  const file = path.join(project, LOCK_FILE);
  let raw: string;
  try {
    const st = fs.lstatSync(file);
    if (!st.isFile()) throw fail('refused', 'project.lock-bad', { path: file, reason: 'not a plain file' });
    if (st.size > MAX_LOCK_BYTES) throw fail('refused', 'project.lock-bad', { path: file, reason: 'larger than 1 MB' });
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { file, raw: null, version: 1, skills: {} };
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw fail('refused', 'project.lock-bad', { path: file, reason: (err as Error).message });
  }
  const parsed = LockSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail('refused', 'project.lock-bad', { path: file, reason: `${issue?.path.join('.') || 'file'}: ${issue?.message ?? ''}` });
  }
  return { file, raw, version: parsed.data.version, skills: parsed.data.skills as Record<string, ProjectLockEntry> };
}

/** The file's text: entries sorted by name, each as given (an entry read from disk keeps its own order). */
export function renderProjectLock(version: number, skills: Record<string, ProjectLockEntry>): string {
  const sorted = Object.fromEntries(
    Object.keys(skills)
      .sort()
      .map((k) => [k, skills[k]]),
  );
  return JSON.stringify({ version, skills: sorted }, null, 2) + '\n';
}

/** `owner/repo` of a github.com URL, else null. */
function githubRepo(url: string): string | null {
  const m = /^https?:\/\/github\.com\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/i.exec(url);
  return m ? `${m[1]}/${m[2]}` : null;
}

/**
 * The lock entry of a library skill added from a source, as the reference CLI would have written
 * it for the same source; null for a source a teammate cannot fetch (an archive).
 */
export function lockEntryFor(origin: SkillOrigin, computedHash: string): ProjectLockEntry | null {
  const { source } = origin;
  if (source.kind !== 'git') return null;
  const skillPath = origin.path ? `${origin.path}/SKILL.md` : 'SKILL.md';
  const gh = githubRepo(source.url);
  if (gh) return { source: gh, ...(source.ref ? { ref: source.ref } : {}), sourceType: 'github', skillPath, computedHash };
  if (/^https?:\/\/gitlab\.com\//i.test(source.url)) {
    return {
      source: source.url,
      sourceUrl: source.url,
      ...(source.ref ? { ref: source.ref } : {}),
      sourceType: 'gitlab',
      skillPath,
      computedHash,
    };
  }
  return { source: source.url, sourceUrl: source.url, sourceType: 'git', skillPath, computedHash };
}

/** The source of an entry in words SkillDock's source parser reads (a local path made absolute). */
export function lockSourceWords(entry: ProjectLockEntry, project: string): string {
  if (entry.sourceType === 'local') return path.resolve(project, entry.source);
  if (entry.sourceType === 'github') return entry.source;
  return entry.sourceUrl ?? entry.source;
}

/** The skill's folder inside its source ('' = the root), from `skillPath`. */
export function lockSkillDir(entry: ProjectLockEntry): string {
  const dir = path.posix.dirname(entry.skillPath ?? 'SKILL.md');
  return dir === '.' ? '' : dir;
}
