import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { isInside } from '../base/extpath.js';
import { MAX_TREE_DEPTH } from '../skills/walk.js';

// Filesystem helpers for the library: a content digest of a folder, a copy that never follows
// links out of the source, and removal that never goes through a link.

// Deeper than any skill: a folder tree past MAX_TREE_DEPTH is refused rather than walked (the
// catalog's walk stops at the same depth and flags the skill).
export { MAX_TREE_DEPTH };

export class TreeTooDeepError extends Error {
  constructor(readonly rel: string) {
    super(`${rel.slice(0, 80)}… is nested more than ${MAX_TREE_DEPTH} folders deep`);
  }
}

type EntryKind = 'dir' | 'file' | 'link' | 'other';

/**
 * Visit every entry under `root` (sorted, a folder before what it holds), iteratively: a tree of
 * any depth cannot overflow the stack, and one deeper than MAX_TREE_DEPTH is refused.
 */
function eachEntry(root: string, visit: (abs: string, rel: string, kind: EntryKind) => void): void {
  const stack: Array<{ abs: string; rel: string; depth: number }> = [{ abs: root, rel: '', depth: 0 }];
  while (stack.length) {
    const { abs, rel, depth } = stack.pop()!;
    const names = fs.readdirSync(abs).sort();
    const below: Array<{ abs: string; rel: string; depth: number }> = [];
    for (const name of names) {
      const p = path.join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(p);
      const kind: EntryKind = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : st.isFile() ? 'file' : 'other';
      visit(p, r, kind);
      if (kind === 'dir') {
        if (depth + 1 > MAX_TREE_DEPTH) throw new TreeTooDeepError(r);
        below.push({ abs: p, rel: r, depth: depth + 1 });
      }
    }
    // Depth first in name order, as a recursive walk would go.
    for (let i = below.length - 1; i >= 0; i--) stack.push(below[i]!);
  }
}

/**
 * sha256 over a folder: every entry's relative path (sorted, `/`-separated), its kind, and a file's
 * bytes or a link's target. Used by undo to make sure it removes only what it created.
 */
export function treeDigest(root: string): string {
  const hash = createHash('sha256');
  const st = fs.lstatSync(root);
  if (st.isSymbolicLink()) {
    hash.update(`l\0${fs.readlinkSync(root)}\0`);
    return hash.digest('hex');
  }
  if (st.isFile()) {
    hash.update('f\0');
    hash.update(fs.readFileSync(root));
    return hash.digest('hex');
  }
  eachEntry(root, (p, r, kind) => {
    if (kind === 'dir') hash.update(`d\0${r}\0`);
    else if (kind === 'link') hash.update(`l\0${r}\0${fs.readlinkSync(p)}\0`);
    else if (kind === 'file') {
      const data = fs.readFileSync(p);
      hash.update(`f\0${r}\0${data.length}\0`);
      hash.update(data);
    } else hash.update(`o\0${r}\0`);
  });
  return hash.digest('hex');
}

export interface CopyOptions {
  /** Called after each file with its size (progress). */
  onBytes?: (n: number) => void;
}

/**
 * Copy a skill folder. Links inside it are copied as links only when they stay inside the skill;
 * a link pointing outside (or absolute) is refused, so an import can never pull in `~/.ssh`.
 */
export function copySkillTree(src: string, dest: string, opts: CopyOptions = {}): void {
  const realRoot = fs.realpathSync(src);
  fs.mkdirSync(dest, { recursive: false });
  eachEntry(src, (a, r, kind) => {
    const b = path.join(dest, ...r.split('/'));
    if (kind === 'dir') fs.mkdirSync(b);
    else if (kind === 'file') {
      fs.copyFileSync(a, b);
      if (opts.onBytes) opts.onBytes(fs.statSync(b).size);
    } else if (kind === 'link') {
      fs.symlinkSync(linkInside(src, realRoot, a), b);
    }
    // sockets, fifos, devices: not part of a skill; skipped
  });
}

/** The target of link `a` in the tree `src`, or LinkOutsideError when it leads out of the tree. */
function linkInside(src: string, realRoot: string, a: string): string {
  const target = fs.readlinkSync(a);
  const resolved = path.resolve(path.dirname(a), target);
  const inside = !path.isAbsolute(target) && isInside(resolved, src);
  let realInside: boolean;
  try {
    realInside = isInside(fs.realpathSync(a), realRoot);
  } catch {
    realInside = inside; // dangling but pointing inside: nothing can leak through it
  }
  if (!inside || !realInside) throw new LinkOutsideError(path.relative(src, a), target);
  return target;
}

/**
 * Move a skill tree that nobody needs at its old place (a scratch checkout) to `dest`: the same
 * result as copySkillTree (links out of the tree refused, sockets and fifos left out) without
 * copying a byte. Falls back to a copy when `dest` is on another filesystem.
 */
export function moveSkillTree(src: string, dest: string): void {
  const realRoot = fs.realpathSync(src);
  let odd = false;
  eachEntry(src, (a, _r, kind) => {
    if (kind === 'link') linkInside(src, realRoot, a);
    else if (kind !== 'dir' && kind !== 'file') odd = true;
  });
  if (odd) return copySkillTree(src, dest);
  try {
    fs.renameSync(src, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copySkillTree(src, dest);
  }
}

export class LinkOutsideError extends Error {
  constructor(
    readonly rel: string,
    readonly target: string,
  ) {
    super(`${rel} is a link to ${target}, outside the skill folder`);
  }
}

/** lstat that returns undefined for a missing path. */
export function lstatOrNull(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Remove `p`: a link is unlinked (its target untouched), a folder removed recursively without
 * following links inside it.
 */
export function removeNoFollow(p: string): void {
  const st = lstatOrNull(p);
  if (!st) return;
  if (st.isSymbolicLink() || !st.isDirectory()) fs.unlinkSync(p);
  else fs.rmSync(p, { recursive: true, force: true });
}

/**
 * Remove a staging copy of any depth: `fs.rmSync` recurses and overflows on thousands of levels,
 * so the deepest folders go first, one level at a time (links unlinked, never followed).
 */
export function removeTreeSafely(root: string): void {
  const top = lstatOrNull(root);
  if (!top) return;
  if (!top.isDirectory()) return fs.unlinkSync(root);
  const dirs: string[] = [];
  const stack = [root];
  while (stack.length) {
    const d = stack.pop()!;
    let names: string[];
    try {
      names = fs.readdirSync(d);
    } catch {
      continue;
    }
    dirs.push(d);
    for (const n of names) {
      const p = path.join(d, n);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) stack.push(p);
      else fs.unlinkSync(p);
    }
  }
  for (let i = dirs.length - 1; i >= 0; i--) fs.rmdirSync(dirs[i]!);
}
