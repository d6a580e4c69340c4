import fs from 'node:fs';
import path from 'node:path';

// Launch asks security about every attached skill on every launch. Reading and parsing each skill's
// files each time costs most of a launch, so the result of reading a skill folder is kept, keyed by
// its real dir and the catalog digest, and reused only while a stat walk of the folder (no file
// content read) still sees exactly the same entries. The catalog digest alone is not enough: it
// ignores the executable bit, and a watched catalog may lag an edit by its debounce.

/** Timestamps younger than this at read time may hide a later same-tick edit (coarse clocks, FAT's 2 s). */
export const RACY_MS = 2000;

const SKIP_DIRS = new Set(['.git', '.hg', '.svn']);

export interface FolderStamp {
  /** Every entry's path, type, size, mtime, ctime, mode and inode, in walk order. */
  key: string;
  /** Newest mtime/ctime seen (ms since epoch). */
  newest: number;
}

/**
 * Stat walk of a skill folder: readdir + lstat, never following a link or reading a file. ctime is
 * in it because no user-level tool can set it back: any write, chmod or rename moves it.
 */
export function folderStamp(dir: string): FolderStamp | null {
  const parts: string[] = [];
  let newest = 0;
  const add = (rel: string, st: fs.Stats) => {
    const type = st.isSymbolicLink() ? 'l' : st.isDirectory() ? 'd' : st.isFile() ? 'f' : 'o';
    parts.push(`${rel}\0${type}\0${st.size}\0${st.mtimeMs}\0${st.ctimeMs}\0${st.mode}\0${st.ino}`);
    newest = Math.max(newest, st.mtimeMs, st.ctimeMs);
  };
  let rootStat: fs.Stats;
  try {
    rootStat = fs.statSync(dir);
  } catch {
    return null;
  }
  if (!rootStat.isDirectory()) return null;
  add('.', rootStat);
  const walk = (abs: string, rel: string): boolean => {
    let names: string[];
    try {
      names = fs.readdirSync(abs).sort();
    } catch {
      return false;
    }
    for (const name of names) {
      const childAbs = path.join(abs, name);
      const childRel = rel ? `${rel}/${name}` : name;
      let st: fs.Stats;
      try {
        st = fs.lstatSync(childAbs);
      } catch {
        return false; // raced with a change: do not trust what was seen
      }
      add(childRel, st);
      if (st.isDirectory() && !SKIP_DIRS.has(name) && !walk(childAbs, childRel)) return false;
    }
    return true;
  };
  if (!walk(dir, '')) return null;
  return { key: parts.join('\n'), newest };
}

interface Slot<T> {
  digest: string;
  stamp: string;
  value: T;
}

/** Values computed from a skill folder's files, valid while the folder's stamp and digest hold. */
export class FolderCache<T> {
  private slots = new Map<string, Slot<T>>();

  constructor(private readonly max = 2000) {}

  /**
   * The cached value for `dir` when the catalog digest and the stamp both still match; else
   * `compute()` it, stamping the folder first so an edit during the read invalidates it later.
   */
  get(dir: string, digest: string, compute: () => T): T {
    const now = folderStamp(dir);
    const hit = this.slots.get(dir);
    if (hit && now && hit.digest === digest && hit.stamp === now.key) return hit.value;
    const started = Date.now();
    const value = compute();
    if (now && now.newest < started - RACY_MS) {
      if (this.slots.size >= this.max) this.slots.delete(this.slots.keys().next().value!);
      this.slots.delete(dir);
      this.slots.set(dir, { digest, stamp: now.key, value });
    } else {
      this.slots.delete(dir);
    }
    return value;
  }

  clear(): void {
    this.slots.clear();
  }

  get size(): number {
    return this.slots.size;
  }
}
