import fs from 'node:fs';
import path from 'node:path';
import type { IndexedSkillWithBody } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { gitFailure, runGit } from '../sources/git.js';
import { fetchLimitArgs } from '../sources/git-limits.js';
import { discoverSkills } from '../sources/discover.js';
import { analyzeCatalogSkill } from './analyze.js';

// A git catalog's mirror: one repository per catalog under `<home>/catalogs/<id>/repo`, fetched at
// each refresh (depth 1, no tags) and checked out detached. Only what the diff of the old and new
// trees touches is analysed again; every other skill keeps its index entry. Skills are found by
// the same rules `add` uses (src/sources/discover.ts). The user's git runs with hooks, filters and
// submodules off (src/sources/git.ts): nothing in a catalog runs.

/** A catalog may be far bigger than one source (a repository of 5,000 skills), yet bounded. */
export const CATALOG_LIMITS = { maxFiles: 100_000, maxBytes: 1024 * 1024 * 1024, maxSkills: 20_000 };

/** A repository mirrored under SkillDock's home. */
export interface MirrorTarget {
  /** What the user gave (for messages) and the URL git is given. */
  given: string;
  url: string;
  ref?: string;
  repoDir: string;
  signal?: AbortSignal;
}

export interface MirrorInput extends MirrorTarget {
  catalog: string;
  /** The repository this mirror holds when it is not the catalog's own (a marketplace names it). */
  repo?: string;
  /** The previous index entries of this repository, and the commit they came from. */
  old: IndexedSkillWithBody[];
  oldCommit?: string;
}

export interface MirrorResult {
  commit: string;
  skills: IndexedSkillWithBody[];
  added: number;
  changed: number;
  removed: number;
  unchanged: boolean;
}

async function git(args: string[], cwd: string, url?: string, signal?: AbortSignal): Promise<string> {
  return (await runGit(args, { cwd, ...(url ? { url } : {}), ...(signal ? { signal } : {}) })).stdout;
}

/** Refuse a tree over the catalog limits before anything of it is checked out. */
function checkCatalogTree(catalog: string, lsTree: string): void {
  let files = 0;
  let bytes = 0;
  for (const rec of lsTree.split('\0')) {
    if (!rec) continue;
    const meta = rec.slice(0, rec.indexOf('\t')).split(/\s+/);
    if (meta[1] !== 'blob') continue;
    files++;
    bytes += Number(meta[3]) || 0;
  }
  if (files > CATALOG_LIMITS.maxFiles)
    throw fail('refused', 'discover.too-many-files', { id: catalog, files, max: CATALOG_LIMITS.maxFiles });
  if (bytes > CATALOG_LIMITS.maxBytes)
    throw fail('refused', 'sources.limit.too-big', {
      source: catalog,
      mb: Math.round(bytes / 1048576),
      max: CATALOG_LIMITS.maxBytes / 1048576,
    });
}

interface Change {
  oldMode: string;
  newMode: string;
  status: string;
  path: string;
}

/** `git diff-tree -r --raw -z`: `:<old mode> <new mode> <old oid> <new oid> <status>\0<path>\0` per file. */
export function parseRawDiff(out: string): Change[] {
  const parts = out.split('\0');
  const changes: Change[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i]!.replace(/^:/, '').split(' ');
    if (meta.length < 5) break;
    changes.push({ oldMode: meta[0]!, newMode: meta[1]!, status: meta[4]!, path: parts[i + 1]! });
  }
  return changes;
}

/**
 * The tree listing (`ls-tree -r -l -z`) of the commit the last refresh indexed, kept in the mirror's
 * `.git` with that commit on its first line. The next refresh lists its new commit anyway (for the
 * limits), so the diff is the difference of the two listings: one git process fewer than
 * `diff-tree` per refresh. Missing, or of another commit: `diff-tree` as before.
 */
const LISTING = 'skilldock-listing';

function readListing(repoDir: string, commit: string): string | null {
  try {
    const text = fs.readFileSync(path.join(repoDir, '.git', LISTING), 'utf8');
    const nl = text.indexOf('\n');
    return nl === 40 && text.slice(0, nl) === commit ? text.slice(nl + 1) : null;
  } catch {
    return null;
  }
}

function writeListing(repoDir: string, commit: string, tree: string): void {
  const file = path.join(repoDir, '.git', LISTING);
  const tmp = `${file}.tmp-${process.pid}`;
  try {
    fs.writeFileSync(tmp, `${commit}\n${tree}`);
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true }); // the next refresh asks diff-tree instead
  }
}

/** path → mode and object id, from `ls-tree -r -l -z` (`<mode> <type> <oid> <size>\t<path>\0`). */
function listingEntries(tree: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rec of tree.split('\0')) {
    const tab = rec.indexOf('\t');
    if (tab < 0) continue;
    const meta = rec.slice(0, tab).split(/\s+/);
    out.set(rec.slice(tab + 1), `${meta[0]} ${meta[2]}`);
  }
  return out;
}

/** The changes from one listing to the next, as `diff-tree -r --no-renames` reports them. */
export function diffListings(before: string, after: string): Change[] {
  const a = listingEntries(before);
  const b = listingEntries(after);
  const out: Change[] = [];
  for (const [p, now] of b) {
    const was = a.get(p);
    if (was === now) continue;
    const newMode = now.slice(0, now.indexOf(' '));
    if (was === undefined) {
      out.push({ oldMode: '000000', newMode, status: 'A', path: p });
      continue;
    }
    const oldMode = was.slice(0, was.indexOf(' '));
    out.push({ oldMode, newMode, status: oldMode.slice(0, 2) === newMode.slice(0, 2) ? 'M' : 'T', path: p });
  }
  for (const [p, was] of a) if (!b.has(p)) out.push({ oldMode: was.slice(0, was.indexOf(' ')), newMode: '000000', status: 'D', path: p });
  return out;
}

/** Where a mirror keeps the commit fetched last. */
const FETCHED = 'refs/skilldock/fetched';

const MANIFESTS = new Set(['marketplace.json', 'plugin.json']);

/** Can this change make discovery find other skill folders than before? */
function affectsDiscovery(c: Change): boolean {
  const base = c.path.slice(c.path.lastIndexOf('/') + 1);
  if (MANIFESTS.has(base)) return true;
  if (c.oldMode === '120000' || c.newMode === '120000') return true; // a link: where it leads may change
  return base === 'SKILL.md' && c.status !== 'M';
}

/** Does `rel` (a changed file) lie in the skill folder `dir` ('' = the repository root)? */
function under(dir: string, rel: string): boolean {
  return dir === '' || rel === dir || rel.startsWith(`${dir}/`);
}

/** Fetch a mirror's repository (made first when missing): whether it was new, and the commit fetched. */
export async function fetchMirror(m: MirrorTarget): Promise<{ fresh: boolean; commit: string }> {
  const fresh = !fs.existsSync(path.join(m.repoDir, '.git'));
  try {
    if (fresh) {
      fs.rmSync(m.repoDir, { recursive: true, force: true });
      fs.mkdirSync(m.repoDir, { recursive: true });
      await git(['init', '-q', '--end-of-options', m.repoDir], m.repoDir);
    }
    const lim = fetchLimitArgs();
    const fetchArgs = ['fetch', '-q', ...lim.args, '--depth', '1', '--no-tags', '--no-recurse-submodules'];
    // Into a ref of the mirror's own: git tells the server the commit it holds (a detached HEAD is
    // not offered), so a refresh downloads what changed, not the whole tree again (2,005 objects
    // for 1,000 skills, every refresh, before; 7 after a commit that changes two files).
    const refspec = `+${m.ref ?? 'HEAD'}:${FETCHED}`;
    await git([...lim.config, ...fetchArgs, '--end-of-options', m.url, refspec], m.repoDir, m.url, m.signal);
  } catch (err) {
    throw gitFailure(err, m.given);
  }
  // FETCH_HEAD's first line names the commit fetched (one git process less than rev-parse).
  const head = /^([0-9a-f]{40})\t/.exec(fs.readFileSync(path.join(m.repoDir, '.git', 'FETCH_HEAD'), 'utf8'));
  const commit = head?.[1] ?? (await git(['rev-parse', '--verify', 'FETCH_HEAD^{commit}'], m.repoDir)).trim();
  return { fresh, commit };
}

/** Check a fetched commit's tree against the limits, then check it out; returns its listing. */
async function checkoutMirror(m: MirrorTarget, commit: string, tree?: string): Promise<string> {
  const listing = tree ?? (await git(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], m.repoDir));
  checkCatalogTree(m.given, listing);
  // No preloading of the index: its threads only compete for the cores on a busy machine, and a
  // mirror's work tree is small next to what they are for.
  await git(['-c', 'core.symlinks=true', '-c', 'core.preloadIndex=false', 'checkout', '-q', '-f', '--detach', commit], m.repoDir);
  writeListing(m.repoDir, commit, listing);
  return listing;
}

/**
 * The mirror of a repository at its newest commit, fetched at most once per `maxAgeMs` (a search
 * service's hit previewed again, or another skill of the same repository): the commit checked out.
 */
export async function mirrorAtNewest(m: MirrorTarget, maxAgeMs: number): Promise<string> {
  const dotGit = path.join(m.repoDir, '.git');
  const head = () => {
    try {
      const h = fs.readFileSync(path.join(dotGit, 'HEAD'), 'utf8').trim();
      return /^[0-9a-f]{40}$/.test(h) && readListing(m.repoDir, h) !== null ? h : null; // checked out whole
    } catch {
      return null;
    }
  };
  try {
    const h = head();
    if (h && Date.now() - fs.statSync(path.join(dotGit, 'FETCH_HEAD')).mtimeMs < maxAgeMs) return h;
  } catch {
    // never fetched: fetch
  }
  const { commit } = await fetchMirror(m);
  if (head() !== commit) await checkoutMirror(m, commit);
  return commit;
}

export async function refreshMirror(ctx: ServiceContext, m: MirrorInput): Promise<MirrorResult> {
  const { fresh, commit } = await fetchMirror(m);
  if (!fresh && m.oldCommit === commit && m.old.length) {
    return { commit, skills: m.old, added: 0, changed: 0, removed: 0, unchanged: true };
  }
  // The tree's size (checked before anything is checked out) and what differs from the commit
  // indexed before (null = analyse every skill): from the listing kept at the last refresh, else
  // from diff-tree, read at the same time.
  const incremental = !fresh && !!m.oldCommit && /^[0-9a-f]{40}$/.test(m.oldCommit);
  const listed = incremental ? readListing(m.repoDir, m.oldCommit!) : null;
  const [tree, raw] = await Promise.all([
    git(['ls-tree', '-r', '-l', '-z', '--full-tree', commit], m.repoDir),
    incremental && listed === null
      ? git(['diff-tree', '-r', '--raw', '--no-renames', '-z', m.oldCommit!, commit], m.repoDir).catch(() => null) // old commit gone: read all
      : Promise.resolve(null),
  ]);
  const diff: Change[] | null = listed !== null ? diffListings(listed, tree) : raw === null ? null : parseRawDiff(raw);
  await checkoutMirror(m, commit, tree);
  // Walking every folder is the slow part of a refresh; the skills found stay the same unless a
  // SKILL.md came or went, a link changed, or a manifest changed.
  const paths = diff && !diff.some(affectsDiscovery) && m.old.length ? m.old.map((s) => s.path) : discoverSkills(m.repoDir, '').paths;
  const touched = diff?.map((c) => c.path) ?? null;
  if (paths.length > CATALOG_LIMITS.maxSkills)
    throw fail('refused', 'discover.too-many-skills', { id: m.catalog, count: paths.length, max: CATALOG_LIMITS.maxSkills });
  const before = new Map(m.old.map((s) => [s.path, s]));
  const skills: IndexedSkillWithBody[] = [];
  let added = 0;
  let changed = 0;
  for (const rel of paths) {
    const prev = before.get(rel);
    if (prev && touched && !touched.some((f) => under(rel, f))) {
      skills.push({ ...prev, commit });
      continue;
    }
    const dir = path.join(m.repoDir, ...rel.split('/').filter(Boolean));
    const s = await analyzeCatalogSkill(ctx, dir, { catalog: m.catalog, path: rel, commit, ...(m.repo ? { repo: m.repo } : {}) });
    if (!prev) added++;
    else if (prev.digest !== s.digest) changed++;
    skills.push(s);
  }
  const now = new Set(paths);
  const removed = m.old.filter((s) => !now.has(s.path)).length;
  return { commit, skills, added, changed, removed, unchanged: false };
}

/**
 * The other repositories a marketplace names for its plugins (`source: {source: "github", repo}`
 * or `{source: "url", url}`), as given; at most `max`. Relative sources are in the same repository
 * and found by discovery already.
 */
export function marketplaceRepos(repoDir: string, max = 50): string[] {
  let market: unknown;
  try {
    const file = path.join(repoDir, '.claude-plugin', 'marketplace.json');
    const st = fs.lstatSync(file);
    if (!st.isFile() || st.size > 1024 * 1024) return [];
    market = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return []; // missing or broken: the repository's own skills are still indexed
  }
  const plugins = (market as { plugins?: unknown })?.plugins;
  if (!Array.isArray(plugins)) return [];
  const out = new Set<string>();
  for (const p of plugins) {
    const src = (p as { source?: unknown })?.source as { source?: unknown; repo?: unknown; url?: unknown } | undefined;
    if (!src || typeof src !== 'object') continue;
    const given = src.source === 'github' ? src.repo : src.source === 'url' ? src.url : undefined;
    if (typeof given === 'string' && given.length <= 500) out.add(given);
    if (out.size >= max) break;
  }
  return [...out];
}
