import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';
import type { Diagnostic } from '../contract/index.js';
import { makeDiagnostic } from '../skills/rules.js';
import { childPath, hasSkillFile, listDir, type Listed } from '../skills/walk.js';
import type { Registry } from '../agents/registry.js';
import { readdirEntries, statAsync } from './fs-async.js';

// Discovery below one root: its direct children, links followed once, nothing deeper than the
// one level needed to report nested skills. A broken child becomes a diagnostic, never a throw.

/** A direct child of a root, after following a link. */
export interface Child {
  dirName: string;
  /** `<root>/<dirName>` as found (may be a link). */
  dir: string;
  realPath: string;
  linked: boolean;
  linkTarget?: string;
}

/** A direct child after following links; what it holds is decided by analysing it. */
export type Resolved = { kind: 'child'; child: Child } | { kind: 'broken'; dir: string; diagnostic: Diagnostic };

export type ChildState =
  | { kind: 'skill'; child: Child }
  /** Not a skill, but holds skills one level down (reported as `skill-nested`). */
  | { kind: 'nested'; child: Child; nested: string[] }
  /** Not a skill and nothing below it (silently ignored in a root; `skill-file-missing` in lint). */
  | { kind: 'none'; child: Child }
  | { kind: 'broken'; dir: string; diagnostic: Diagnostic };

export type EntryKind = 'dir' | 'link' | 'unknown';

export interface RootListing {
  exists: boolean;
  /** Root dir mtime when listed (a changed mtime means children were added or removed). */
  mtimeMs: number;
  names: string[];
  /** Entry type from the listing, so a plain folder costs no extra syscall. */
  kinds: Map<string, EntryKind>;
}

/** Byte-order compare: the same input gives the same order on every machine and locale. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** List a root's children (files excluded, links kept). A missing root is empty. */
export async function listRoot(rootPath: string): Promise<RootListing> {
  const empty = (exists: boolean, mtimeMs = 0): RootListing => ({ exists, mtimeMs, names: [], kinds: new Map() });
  let mtimeMs: number;
  try {
    const st = await statAsync(rootPath);
    if (!st.isDirectory()) return empty(false);
    mtimeMs = st.mtimeMs;
  } catch {
    return empty(false);
  }
  let entries: fs.Dirent[];
  try {
    entries = await readdirEntries(rootPath);
  } catch {
    return empty(true, mtimeMs);
  }
  const kinds = new Map<string, EntryKind>();
  for (const e of entries) {
    if (e.isDirectory()) kinds.set(e.name, 'dir');
    else if (e.isSymbolicLink()) kinds.set(e.name, 'link');
    else if (!e.isFile()) kinds.set(e.name, 'unknown'); // filesystems without entry types
  }
  const names = [...kinds.keys()].sort(compareNames);
  return { exists: true, mtimeMs, names, kinds };
}

/**
 * Follow one child (dangling and looping links become diagnostics). A plain folder known from the
 * listing costs nothing here. Null when the entry vanished or is a plain file.
 */
export function resolveChild(rootPath: string, rootReal: string, dirName: string, kind: EntryKind = 'unknown'): Resolved | null {
  const dir = childPath(rootPath, dirName);
  if (kind === 'unknown') {
    const lst = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!lst) return null;
    kind = lst.isSymbolicLink() ? 'link' : lst.isDirectory() ? 'dir' : 'unknown';
    if (kind === 'unknown') return null;
  }
  if (kind === 'dir') return { kind: 'child', child: { dirName, dir, realPath: childPath(rootReal, dirName), linked: false } };
  let linkTarget: string;
  try {
    linkTarget = fs.readlinkSync(dir);
  } catch {
    return null;
  }
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { kind: 'broken', dir, diagnostic: cycle(dir, linkTarget) };
    return {
      kind: 'broken',
      dir,
      diagnostic: makeDiagnostic('link-dangling', {
        says: 'message',
        params: { dir: dirName, target: linkTarget },
        file: dir,
      }),
    };
  }
  if (!st.isDirectory()) return null;
  let realPath: string;
  try {
    realPath = fs.realpathSync(dir);
  } catch {
    return null; // removed between the two calls
  }
  // A link back to the root or one of its ancestors would make any recursive walker loop.
  if (isInside(rootReal, realPath)) return { kind: 'broken', dir, diagnostic: cycle(dir, linkTarget) };
  return { kind: 'child', child: { dirName, dir, realPath, linked: true, linkTarget } };
}

function cycle(dir: string, target: string): Diagnostic {
  return makeDiagnostic('link-cycle', {
    says: 'message',
    params: { link: path.basename(dir), target },
    file: dir,
  });
}

// Per-child probes are single small syscalls: synchronous calls cost a fraction of a promise
// round trip through the thread pool, and tens of thousands of them run in a cold scan.
function exists(p: string): boolean {
  return fs.lstatSync(p, { throwIfNoEntry: false }) !== undefined;
}

export type Probe =
  /** `listing`: the folder's entries, handed to the analysis so it does not list them again. */
  | { kind: 'skill'; listing?: Listed[] }
  /** `sig` lists what was seen, so a rescan can tell whether a skill appeared since. */
  | { kind: 'nested'; nested: string[]; sig: string }
  | { kind: 'none'; sig: string };

/**
 * Is this folder a skill? One readdir, which the analysis of a skill then reuses. A folder with
 * `SKILL.md` (or a `skill.md` in another casing: the casing is lint's business) is a skill;
 * otherwise its subfolders are probed for nested skills. A folder that is not a skill is never
 * walked or hashed, so a stray repository clone in a root costs a handful of syscalls.
 */
export function probeChild(child: Child): Probe {
  const listed = listDir(child.dir);
  // A folder we may enter but not list still holds a skill file when it can be found by name.
  if (!listed) return exists(path.join(child.dir, 'SKILL.md')) ? { kind: 'skill' } : { kind: 'none', sig: JSON.stringify([[], []]) };
  const entries = listed;
  if (hasSkillFile(entries)) return { kind: 'skill', listing: entries };
  const nested: string[] = [];
  const seen: string[] = [];
  for (const [name, type] of entries) {
    if (type !== 'dir' && type !== 'link') continue;
    seen.push(name);
    const sub = path.join(child.dir, name);
    if (exists(path.join(sub, 'SKILL.md'))) nested.push(sub);
  }
  nested.sort(compareNames);
  const sig = JSON.stringify([seen.sort(compareNames), nested]);
  return nested.length ? { kind: 'nested', nested, sig } : { kind: 'none', sig };
}

/** `skill-nested` for a skill two levels below a root, naming the agents that miss it. */
export function nestedDiagnostic(skillDir: string, registry: Registry): Diagnostic {
  return makeDiagnostic(
    'skill-nested',
    {
      says: 'below-root',
      params: { name: path.basename(skillDir), parent: path.basename(path.dirname(skillDir)) },
      file: path.join(skillDir, 'SKILL.md'),
      variant: '2',
    },
    registry,
  );
}

/** Run `fn` over `items` with at most `limit` in flight; results keep the input order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
