import fs from 'node:fs';
import path from 'node:path';

// Launch asks security about every attached skill on every launch. Reading and parsing each skill's
// files each time would cost most of a launch, so what was read from a skill folder is kept, keyed
// by its real dir and the catalog's content digest of the folder, and reused only while the folder
// is provably unchanged since the read:
//
// - Watched (the catalog keeps the folder's root fresh from file events, as the app and the browser
//   server do): the catalog digest, plus a watch on each of the skill's own folders started just
//   before that folder was listed for the read. The digest covers every file's bytes and is
//   brought up to date by the catalog's watcher; the folder watch also fires on what the digest and
//   the catalog's watcher ignore (a chmod +x alone, an edit whose mtime was put back). A hit costs no
//   syscall. Like the catalog, it knows of a change once the event loop has delivered its event.
// - Unwatched (the one-shot CLI, or a root whose watch failed): the catalog re-checks the root on
//   every lookup, and a stat walk of the folder (no file content read) must still see exactly the
//   same entries (size, mtime, ctime, mode, inode) as before the read.

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

/**
 * A watch on each folder of one skill (one non-recursive `fs.watch` per folder: a change to any
 * entry of a watched folder, its attributes included, is reported on the folder). `fired` turns
 * true at the first event or error, and the watches are closed then: one change is all it needs to
 * know. The watches never keep the process alive.
 */
export class FolderGuard {
  fired = false;
  private watchers: fs.FSWatcher[] = [];

  /** Start watching `dir`; throws when the system refuses (watch limit, folder gone). */
  watch(dir: string): void {
    if (this.fired) return;
    const w = fs.watch(dir, { persistent: false });
    const trip = () => this.trip();
    w.on('change', trip);
    w.on('error', trip);
    this.watchers.push(w);
  }

  get size(): number {
    return this.watchers.length;
  }

  private trip(): void {
    this.fired = true;
    this.close();
  }

  close(): void {
    const ws = this.watchers;
    this.watchers = [];
    for (const w of ws) {
      try {
        w.close();
      } catch {
        // already closed
      }
    }
  }
}

interface Slot<T> {
  digest: string;
  value: T;
  /** Watched: the folder watches started before the read. */
  guard: FolderGuard | null;
  /** Unwatched: the stat walk taken before the read. */
  stamp: FolderStamp | null;
}

/** Reads a skill folder; calls `beforeList` with each folder it is about to list. */
export type FolderReader<T> = (beforeList?: (abs: string) => void) => T;

/** Values computed from a skill folder's files, valid while the catalog digest holds and the folder is unchanged. */
export class SurfaceCache<T> {
  private slots = new Map<string, Slot<T>>();
  /** How often a folder was read (tests and benchmarks: a hit reads nothing). */
  reads = 0;
  /** How often an unwatched folder was stat-walked to check a cached value. */
  stampChecks = 0;

  constructor(
    private readonly max = 2000,
    private readonly racyMs = RACY_MS,
  ) {}

  /**
   * The cached value for the folder `dir` while `digest` (the catalog's) is unchanged and the
   * folder provably too; else `read()` it. `watched`: the catalog keeps the folder's root fresh
   * from file events (see the top of this file).
   */
  get(dir: string, digest: string, watched: boolean, read: FolderReader<T>): T {
    const hit = this.slots.get(dir);
    if (hit && hit.digest === digest) {
      if (watched && hit.guard && !hit.guard.fired) return hit.value;
      if (hit.stamp) {
        this.stampChecks++;
        const now = folderStamp(dir);
        if (now && sameStamp(hit.stamp, now)) return hit.value;
      }
    }
    if (hit) this.drop(dir);
    return watched ? this.readWatched(dir, digest, read) : this.readStamped(dir, digest, read);
  }

  private readWatched(dir: string, digest: string, read: FolderReader<T>): T {
    const guard = new FolderGuard();
    let complete = true;
    this.reads++;
    const value = read((abs) => {
      if (!complete) return;
      try {
        guard.watch(abs);
      } catch {
        complete = false; // a folder we could not watch: keep nothing
      }
    });
    if (complete && !guard.fired && guard.size > 0) this.put(dir, { digest, value, guard, stamp: null });
    else guard.close();
    return value;
  }

  /** Stamp first, so an edit during the read shows up as a changed stamp later. */
  private readStamped(dir: string, digest: string, read: FolderReader<T>): T {
    const stamp = folderStamp(dir);
    const started = Date.now();
    this.reads++;
    const value = read();
    if (stamp && stamp.newest < started - this.racyMs) this.put(dir, { digest, value, guard: null, stamp });
    return value;
  }

  private put(dir: string, slot: Slot<T>): void {
    if (this.slots.size >= this.max) this.drop(this.slots.keys().next().value!);
    this.slots.set(dir, slot);
  }

  private drop(dir: string): void {
    this.slots.get(dir)?.guard?.close();
    this.slots.delete(dir);
  }

  /** A value is kept for `dir` and no watch of it has fired (it may still fail its digest or stamp check). */
  holds(dir: string): boolean {
    const s = this.slots.get(dir);
    return Boolean(s && !s.guard?.fired);
  }

  /** Forget everything and close every folder watch. */
  clear(): void {
    for (const s of this.slots.values()) s.guard?.close();
    this.slots.clear();
  }

  get size(): number {
    return this.slots.size;
  }
}
