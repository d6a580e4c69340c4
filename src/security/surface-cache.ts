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
  /** Every entry's relative path and type, in walk order. */
  names: string[];
  /** Per entry: size, mtime, ctime, mode, inode (numbers: no string building on the hot path). */
  nums: number[];
  /** Newest mtime/ctime seen (ms since epoch). */
  newest: number;
}

export function sameStamp(a: FolderStamp, b: FolderStamp): boolean {
  if (a.names.length !== b.names.length || a.nums.length !== b.nums.length) return false;
  for (let i = 0; i < a.nums.length; i++) if (a.nums[i] !== b.nums[i]) return false;
  for (let i = 0; i < a.names.length; i++) if (a.names[i] !== b.names[i]) return false;
  return true;
}

/**
 * Stat walk of a skill folder: readdir + lstat, never following a link or reading a file. ctime is
 * in it because no user-level tool can set it back: any write, chmod or rename moves it.
 */
export function folderStamp(dir: string): FolderStamp | null {
  const names: string[] = [];
  const nums: number[] = [];
  let newest = 0;
  const add = (rel: string, st: fs.Stats) => {
    const type = st.isSymbolicLink() ? 'l' : st.isDirectory() ? 'd' : st.isFile() ? 'f' : 'o';
    names.push(`${type}${rel}`);
    nums.push(st.size, st.mtimeMs, st.ctimeMs, st.mode, st.ino);
    if (st.mtimeMs > newest) newest = st.mtimeMs;
    if (st.ctimeMs > newest) newest = st.ctimeMs;
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
    let entries: string[];
    try {
      entries = fs.readdirSync(abs).sort();
    } catch {
      return false;
    }
    for (const name of entries) {
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
  return { names, nums, newest };
}

interface Slot<T> {
  digest: string;
  stamp: FolderStamp;
  value: T;
}

/** Values computed from a skill folder's files, valid while the folder's stamp and digest hold. */
export class FolderCache<T> {
  private slots = new Map<string, Slot<T>>();

  constructor(
    private readonly max = 2000,
    private readonly racyMs = RACY_MS,
  ) {}

  /**
   * The cached value for `dir` when the catalog digest and the stamp both still match; else
   * `compute()` it, stamping the folder first so an edit during the read invalidates it later.
   */
  get(dir: string, digest: string, compute: () => T): T {
    const now = folderStamp(dir);
    const hit = this.slots.get(dir);
    if (hit && now && hit.digest === digest && sameStamp(hit.stamp, now)) return hit.value;
    const started = Date.now();
    const value = compute();
    if (now && now.newest < started - this.racyMs) {
      if (this.slots.size >= this.max) this.slots.delete(this.slots.keys().next().value!);
      this.slots.delete(dir);
      this.slots.set(dir, { digest, stamp: now, value });
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
