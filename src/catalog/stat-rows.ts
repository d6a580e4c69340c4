import fs from 'node:fs';
import path from 'node:path';

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
function resolutionMs(): number {
  const res = resolutionNs();
  return res === 1n ? 0 : Number(res) / 1e6;
}

function floor(v: number, resMs: number): number {
  return resMs === 0 ? v : Math.floor(v / resMs) * resMs;
}

function push(out: { rels: string[]; nums: number[] }, rel: string, st: fs.Stats, resMs: number): void {
  out.rels.push(rel);
  out.nums.push(st.dev, st.ino, st.size, floor(st.mtimeMs, resMs), floor(st.ctimeMs, resMs), st.mode);
}

/**
 * Rows for `dir` and what is below it, from depth `minDepth` to `maxDepth` (the dir's own
 * entries are depth 1). Null when the dir cannot be read as a folder.
 */
export function statRows(dir: string, minDepth: number, maxDepth: number): FreshRows | null {
  const res = resolutionMs();
  const out: FreshRows = { rels: [], nums: [], at: 0 };
  if (minDepth === 0) {
    const own = fs.lstatSync(dir, { throwIfNoEntry: false });
    const followed = own?.isSymbolicLink() ? fs.statSync(dir, { throwIfNoEntry: false }) : own;
    if (!own || !followed || !followed.isDirectory()) return null;
    push(out, '@', own, res);
    // A plain folder's lstat is its stat: the followed row only adds something through a link.
    if (own.isSymbolicLink()) push(out, '', followed, res);
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
        const st = fs.lstatSync(dir + path.sep + childRel, { throwIfNoEntry: false });
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

/** The six numbers per row of `rows`, as a plain array of their own. */
export function rowNumbers(rows: StatRows): number[] {
  const n = rows.rels.length * WIDTH;
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = rows.nums[rows.at + i];
  return out;
}

/** A function adding a row to `rows` for each stat it is given (a walk's `onStat`). */
export function rowSink(rows: FreshRows): (rel: string, st: fs.Stats) => void {
  const res = resolutionMs();
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

/** Six numbers of one stat in the rows' order, or undefined when there is nothing at the path. */
type StatNumbers = (path: string, follow: boolean) => Float64Array | undefined;

/** Node's own stat binding, as `fs.lstatSync` calls it (internal: see `fastStat`). */
interface StatBinding {
  lstat(path: string, bigint: false, req: undefined, throwIfNoEntry: false): Float64Array | undefined;
  stat(path: string, bigint: false, req: undefined, throwIfNoEntry: false): Float64Array | undefined;
}

const six = new Float64Array(WIDTH);

/** `fs.lstatSync`/`fs.statSync`, as six numbers. */
function viaFs(p: string, follow: boolean): Float64Array | undefined {
  const st = follow ? fs.statSync(p, { throwIfNoEntry: false }) : fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return undefined;
  six[0] = st.dev;
  six[1] = st.ino;
  six[2] = st.size;
  six[3] = st.mtimeMs;
  six[4] = st.ctimeMs;
  six[5] = st.mode;
  return six;
}

let fast: StatNumbers | null | undefined;

/**
 * Stat numbers without a Stats object. On Node 20 `fs.lstatSync` builds a Stats and four Dates per
 * call: for the 27,000 rows of 10,000 skills that costs more than the lstat calls, and as much
 * again in garbage collection. Node's binding under it fills one shared array of numbers instead.
 * It is internal, so it is used only once it answered a path exactly as `fs.lstatSync` did and a
 * missing path with nothing; otherwise (another Node, another layout, no binding) `fs` answers.
 */
function fastStat(probe: string): StatNumbers | null {
  if (fast !== undefined) return fast;
  fast = null;
  if (
    process.env.SKILLDOCK_INDEX_PLAIN_STAT ||
    /--pending-deprecation/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)
  )
    return null;
  try {
    const b = (process as unknown as { binding(name: string): StatBinding }).binding('fs');
    // Node's layout: dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, then seconds and nanoseconds of atime, mtime, ctime.
    const numbers: StatNumbers = (p, follow) => {
      const v = follow ? b.stat(p, false, undefined, false) : b.lstat(p, false, undefined, false);
      if (!v) return undefined;
      six[0] = v[0];
      six[1] = v[7];
      six[2] = v[8];
      six[3] = v[12] * 1e3 + v[13] / 1e6;
      six[4] = v[14] * 1e3 + v[15] / 1e6;
      six[5] = v[1];
      return six;
    };
    const want = viaFs(probe, false);
    const got = want && Array.from(want);
    const same = got !== undefined && numbers(probe, false)?.every((n, i) => n === got[i]);
    if (same && numbers(path.join(probe, '.skilldock-no-such-entry'), false) === undefined) fast = numbers;
  } catch {
    fast = null;
  }
  return fast;
}

/**
 * A check of rows taken by a scan that started at `stampNs`: true when every row still matches the
 * disk and none is racy (a timestamp not older than `stampNs` by at least `marginNs` could hide an
 * edit made in the same tick, so such a child is read again: git's racy-clean rule).
 */
export function rowsChecker(stampNs: bigint, marginNs: bigint): (dir: string, rows: StatRows) => boolean {
  const res = resolutionMs();
  const limit = Number(stampNs - marginNs) / 1e6;
  let stat: StatNumbers | null = null;
  return (dir, rows) => {
    stat ??= fastStat(dir) ?? viaFs;
    const { rels, nums } = rows;
    const prefix = dir + path.sep;
    for (let i = 0, k = rows.at; i < rels.length; i++, k += WIDTH) {
      const rel = rels[i];
      let st: Float64Array | undefined;
      try {
        st = rel === '@' ? stat(dir, false) : rel === '' ? stat(dir, true) : stat(prefix + rel, false);
      } catch {
        return false; // not a folder any more on the way there (ENOTDIR), or not readable
      }
      if (!st) return false;
      const m = floor(st[3], res);
      const c = floor(st[4], res);
      if (m >= limit || c >= limit) return false;
      if (st[1] !== nums[k + 1] || st[2] !== nums[k + 2] || m !== nums[k + 3] || c !== nums[k + 4]) return false;
      if (st[5] !== nums[k + 5] || st[0] !== nums[k]) return false;
    }
    return true;
  };
}
