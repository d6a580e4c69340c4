import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

// Filesystem helpers for the library: a content digest of a folder, a copy that never follows
// links out of the source, and removal that never goes through a link.

export interface TreeStats {
  files: number;
  bytes: number;
}

/** Files and bytes under `dir` (links counted, never followed). */
export function treeStats(dir: string): TreeStats {
  const out = { files: 0, bytes: 0 };
  const walk = (d: string) => {
    for (const ent of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, ent.name);
      if (ent.isDirectory()) walk(p);
      else {
        out.files++;
        if (ent.isFile()) out.bytes += fs.lstatSync(p).size;
      }
    }
  };
  walk(dir);
  return out;
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
  const walk = (dir: string, rel: string) => {
    const names = fs.readdirSync(dir).sort();
    for (const name of names) {
      const p = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const s = fs.lstatSync(p);
      if (s.isDirectory()) {
        hash.update(`d\0${r}\0`);
        walk(p, r);
      } else if (s.isSymbolicLink()) {
        hash.update(`l\0${r}\0${fs.readlinkSync(p)}\0`);
      } else if (s.isFile()) {
        const data = fs.readFileSync(p);
        hash.update(`f\0${r}\0${data.length}\0`);
        hash.update(data);
      } else {
        hash.update(`o\0${r}\0`);
      }
    }
  };
  walk(root, '');
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
  const walk = (from: string, to: string) => {
    fs.mkdirSync(to, { recursive: false });
    for (const ent of fs.readdirSync(from, { withFileTypes: true })) {
      const a = path.join(from, ent.name);
      const b = path.join(to, ent.name);
      if (ent.isDirectory()) walk(a, b);
      else if (ent.isFile()) {
        fs.copyFileSync(a, b);
        if (opts.onBytes) opts.onBytes(fs.statSync(b).size);
      } else if (ent.isSymbolicLink()) {
        const target = fs.readlinkSync(a);
        const resolved = path.resolve(path.dirname(a), target);
        const inside = !path.isAbsolute(target) && isInside(resolved, src);
        let realInside = false;
        try {
          realInside = isInside(fs.realpathSync(a), realRoot);
        } catch {
          realInside = inside; // dangling but pointing inside: nothing can leak through it
        }
        if (!inside || !realInside) {
          throw new LinkOutsideError(path.relative(src, a), target);
        }
        fs.symlinkSync(target, b);
      }
      // sockets, fifos, devices: not part of a skill; skipped
    }
  };
  walk(src, dest);
}

export class LinkOutsideError extends Error {
  constructor(
    readonly rel: string,
    readonly target: string,
  ) {
    super(`${rel} is a link to ${target}, outside the skill folder`);
  }
}

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Strictly below `parent` (not equal). */
export function isBelow(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
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
