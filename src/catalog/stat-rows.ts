import fs from 'node:fs';
import path from 'node:path';
import { isDirMode, isLinkMode, lstatNumbers, statNumbers, type StatNumbers } from '../skills/stat-numbers.js';

// The stat signature a persistent index keeps per child of a root: one row per file and folder,
// a relative path and six numbers (device, inode, size, mtime ms, ctime ms, mode). A later process
// compares rows with lstat alone (no readdir: a folder's mtime moves when an entry is added,
// removed or renamed in it), so an unchanged skill is never opened again. Rows are taken BEFORE
// the content is read, so a change made while reading shows up as a different row next time (or
// as racy, see `rowsChecker`). Plain numbers in one flat array (times in ms with their sub-ms
// fraction): a BigInt stat or a string per row allocates more, at 10,000 skills, than the lstat
// calls cost.

/** `@` is the child entry itself (lstat: a folder swapped for a link shows), `` the folder followed. */
export interface StatRows {
  rels: string[];
  /**
   * Six numbers per row of `rels`, from `at` on: dev, ino, size, mtimeMs, ctimeMs, mode. Rows
   * loaded from the index share one array of the whole file (no copy per child).
   */
  nums: number[] | Float64Array;
  at: number;
}

const SKIPPED = '.git';
const WIDTH = 6;

/** Timestamps are floored to this many ns before they are kept (tests simulate a coarse filesystem). */
export function resolutionNs(): bigint {
  const r = process.env.SKILLDOCK_INDEX_RESOLUTION_NS;
  return r && /^\d+$/.test(r) && r !== '0' ? BigInt(r) : 1n;
}

/** The resolution in ms, 0 for the filesystem's own (nothing floored). */
export function resolutionMs(): number {
  const res = resolutionNs();
  return res === 1n ? 0 : Number(res) / 1e6;
}

function floor(v: number, resMs: number): number {
  return resMs === 0 ? v : Math.floor(v / resMs) * resMs;
}

function push(out: { rels: string[]; nums: number[] }, rel: string, st: StatNumbers, resMs: number): void {
  out.rels.push(rel);
  out.nums.push(st.dev, st.ino, st.size, floor(st.mtimeMs, resMs), floor(st.ctimeMs, resMs), st.mode);
}

/**
 * Rows for `dir` and what is below it, from depth `minDepth` to `maxDepth` (the dir's own
 * entries are depth 1). Null when the dir cannot be read as a folder.
 */
export function statRows(dir: string, minDepth: number, maxDepth: number, res = resolutionMs()): FreshRows | null {
  const out: FreshRows = { rels: [], nums: [], at: 0 };
  if (minDepth === 0) {
    // Each row is kept before the next stat (a stat's numbers may be refilled by the next one).
    const own = lstatNumbers(dir);
    if (!own) return null;
    const link = isLinkMode(own.mode);
    if (!link && !isDirMode(own.mode)) return null;
    push(out, '@', own, res);
    if (link) {
      // A plain folder's lstat is its stat: the followed row only adds something through a link.
      const followed = statNumbers(dir);
      if (!followed || !isDirMode(followed.mode)) return null;
      push(out, '', followed, res);
    }
  }
  const stack: Array<{ rel: string; depth: number }> = [{ rel: '', depth: 0 }];
  while (stack.length) {
    const { rel, depth } = stack.pop()!;
    if (depth >= maxDepth) continue;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(rel ? path.join(dir, rel) : dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const isDir = e.isDirectory();
      if (isDir && e.name === SKIPPED) continue;
      if (depth + 1 >= minDepth) {
        const st = lstatNumbers(dir + path.sep + childRel);
        if (st) push(out, childRel, st, res);
      }
      if (isDir) stack.push({ rel: childRel, depth: depth + 1 });
    }
  }
  return out;
}

/** Rows just taken (their own array, from 0). */
export interface FreshRows extends StatRows {
  nums: number[];
  at: 0;
}

/** `a` followed by `b`'s rows. */
export function concatRows(a: FreshRows, b: FreshRows): FreshRows {
  return { rels: a.rels.concat(b.rels), nums: a.nums.concat(b.nums), at: 0 };
}

/** A function adding a row to `rows` for each stat it is given (a walk's `onStat`). */
export function rowSink(rows: FreshRows, res = resolutionMs()): (rel: string, st: StatNumbers) => void {
  return (rel, st) => push(rows, rel, st, res);
}

/**
 * Rows of `rels.length` paths whose numbers start at `at` in `nums` (an index file's number
 * section): null when they would not fit in it.
 */
export function storedRows(rels: unknown, nums: Float64Array, at: number): StatRows | null {
  if (!Array.isArray(rels) || rels.length === 0 || at + rels.length * WIDTH > nums.length) return null;
  return { rels: rels as string[], nums, at };
}

/**
 * A check of rows taken by a scan that started at `stampNs`: true when every row still matches the
 * disk and none is racy (a timestamp not older than `stampNs` by at least `marginNs` could hide an
 * edit made in the same tick, so such a child is read again: git's racy-clean rule).
 */
export function rowsChecker(stampNs: bigint, marginNs: bigint): (dir: string, rows: StatRows) => boolean {
  const res = resolutionMs();
  const limit = Number(stampNs - marginNs) / 1e6;
  return (dir, rows) => {
    const { rels, nums } = rows;
    const prefix = dir + path.sep;
    for (let i = 0, k = rows.at; i < rels.length; i++, k += WIDTH) {
      const rel = rels[i];
      let st: StatNumbers | undefined;
      try {
        st = rel === '@' ? lstatNumbers(dir) : rel === '' ? statNumbers(dir) : lstatNumbers(prefix + rel);
      } catch {
        return false; // not a folder any more on the way there (ENOTDIR), or not readable
      }
      if (!st) return false;
      const m = floor(st.mtimeMs, res);
      const c = floor(st.ctimeMs, res);
      if (m >= limit || c >= limit) return false;
      if (st.ino !== nums[k + 1] || st.size !== nums[k + 2] || m !== nums[k + 3] || c !== nums[k + 4]) return false;
      if (st.mode !== nums[k + 5] || st.dev !== nums[k]) return false;
    }
    return true;
  };
}
