import fs from 'node:fs';
import path from 'node:path';

// Stat numbers without a Stats object. On Node 20 `fs.lstatSync` and `fs.fstatSync` build a Stats
// and four Dates per call: for the ~31,000 files and folders of a first scan of 10,000 skills (and
// the stat rows of a valid index) that costs more than the stat calls, and as much again in garbage
// collection. Node's binding under them fills one shared array of numbers instead. It is internal,
// so it is used only once it answered a path (or an open file) exactly as `fs` did, and a missing
// path with nothing; otherwise (another Node, another layout, no binding) `fs` answers. Listings
// likewise: `fs.readdirSync` with types builds a Dirent per entry, the binding two arrays.

/** What the walk and the catalog index read of a stat (an `fs.Stats` has the same fields). */
export interface StatNumbers {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly mode: number;
}

/** Node's own stat binding, as `fs.lstatSync`, `fs.statSync` and `fs.fstatSync` call it. */
interface StatBinding {
  lstat(path: string, bigint: false, req: undefined, throwIfNoEntry: false): Float64Array | undefined;
  stat(path: string, bigint: false, req: undefined, throwIfNoEntry: false): Float64Array | undefined;
  fstat(fd: number, bigint: false, req: undefined, shouldNotThrow: false): Float64Array | undefined;
  readdir(path: string, encoding: 'utf8', withFileTypes: true): [names: string[], types: number[]] | undefined;
}

// One object refilled by every stat through the binding: a caller reads it before its next stat.
const shared = { dev: 0, ino: 0, size: 0, mtimeMs: 0, ctimeMs: 0, mode: 0 };

function fill(v: Float64Array): StatNumbers {
  // Node's layout: dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, then seconds and nanoseconds of atime, mtime, ctime.
  shared.dev = v[0];
  shared.mode = v[1];
  shared.ino = v[7];
  shared.size = v[8];
  shared.mtimeMs = v[12] * 1e3 + v[13] / 1e6;
  shared.ctimeMs = v[14] * 1e3 + v[15] / 1e6;
  return shared;
}

function same(a: StatNumbers, b: StatNumbers): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.mode === b.mode;
}

/** The binding, unless told to use `fs` (or where asking for it would print a deprecation warning). */
function binding(): StatBinding | null {
  if (
    process.env.SKILLDOCK_INDEX_PLAIN_STAT ||
    /--pending-deprecation/.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`)
  )
    return null;
  try {
    return (process as unknown as { binding(name: string): StatBinding }).binding('fs');
  } catch {
    return null;
  }
}

/** undefined: not decided yet; null: `fs` answers. One decision for paths, one for open files. */
let paths: StatBinding | null | undefined;
let fds: StatBinding | null | undefined;

/** The binding for paths once it answered `p` as `fs.lstatSync` did; `fs`'s own answer while undecided. */
function decidePaths(p: string): fs.Stats | undefined {
  const want = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!want) return undefined; // nothing to compare with: decide at the next path
  const b = binding();
  paths = null;
  try {
    const got = b?.lstat(p, false, undefined, false);
    if (b && got && same(fill(got), want) && b.lstat(`${p}.skilldock-no-such-entry`, false, undefined, false) === undefined) {
      paths = b;
    }
  } catch {
    paths = null;
  }
  return want;
}

/**
 * `fs.lstatSync(p, { throwIfNoEntry: false })` as numbers (the shared object when through the
 * binding: read it before the next stat).
 */
export function lstatNumbers(p: string): StatNumbers | undefined {
  if (paths === undefined) return decidePaths(p);
  if (paths === null) return fs.lstatSync(p, { throwIfNoEntry: false });
  const v = paths.lstat(p, false, undefined, false);
  return v ? fill(v) : undefined;
}

/** `fs.statSync(p, { throwIfNoEntry: false })` (links followed) as numbers, like `lstatNumbers`. */
export function statNumbers(p: string): StatNumbers | undefined {
  if (paths === undefined) decidePaths(p);
  if (!paths) return fs.statSync(p, { throwIfNoEntry: false });
  const v = paths.stat(p, false, undefined, false);
  return v ? fill(v) : undefined;
}

/** `fs.fstatSync(fd)` as numbers, like `lstatNumbers`. */
export function fstatNumbers(fd: number): StatNumbers {
  if (fds === undefined) {
    const want = fs.fstatSync(fd);
    const b = binding();
    fds = null;
    try {
      const got = b?.fstat(fd, false, undefined, false);
      if (b && got && same(fill(got), want)) fds = b;
    } catch {
      fds = null;
    }
    return want;
  }
  const v = fds?.fstat(fd, false, undefined, false);
  return v ? fill(v) : fs.fstatSync(fd);
}

const S_IFMT = fs.constants.S_IFMT ?? 0o170000;
const S_IFREG = fs.constants.S_IFREG ?? 0o100000;
const S_IFDIR = fs.constants.S_IFDIR ?? 0o040000;
const S_IFLNK = fs.constants.S_IFLNK ?? 0o120000;

export function isFileMode(mode: number): boolean {
  return (mode & S_IFMT) === S_IFREG;
}
export function isDirMode(mode: number): boolean {
  return (mode & S_IFMT) === S_IFDIR;
}
export function isLinkMode(mode: number): boolean {
  return (mode & S_IFMT) === S_IFLNK;
}

/** An entry's type as listed ('' when the filesystem reports none, or a special file). */
export type EntryType = 'file' | 'dir' | 'link' | '';
/** A directory entry as listed: name and type. */
export type Listed = [name: string, type: EntryType];

const { UV_DIRENT_UNKNOWN = 0, UV_DIRENT_FILE = 1, UV_DIRENT_DIR = 2, UV_DIRENT_LINK = 3 } = fs.constants as Record<string, number>;

function typeOf(t: number): EntryType {
  return t === UV_DIRENT_FILE ? 'file' : t === UV_DIRENT_DIR ? 'dir' : t === UV_DIRENT_LINK ? 'link' : '';
}

/** `fs.readdirSync(abs, { withFileTypes: true })` as [name, type] pairs; throws as it does. */
function viaDirents(abs: string): Listed[] {
  const entries = fs.readdirSync(abs, { withFileTypes: true });
  const out = new Array<Listed>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    out[i] = [e.name, e.isFile() ? 'file' : e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'link' : ''];
  }
  return out;
}

/** undefined: not decided yet; null: `fs` answers. */
let lists: StatBinding | null | undefined;

/**
 * A folder's entries with their types, as `fs.readdirSync(abs, { withFileTypes: true })` gives them
 * (an entry of unknown type is asked for with lstat, as fs does; '' when it vanished since). Throws
 * when the folder cannot be listed.
 */
export function listTyped(abs: string): Listed[] {
  if (lists === undefined) {
    const want = viaDirents(abs);
    const b = binding();
    lists = null;
    try {
      const got = b?.readdir(abs, 'utf8', true);
      if (b && got && sameListing(got, want)) lists = b;
    } catch {
      lists = null;
    }
    return want;
  }
  if (!lists) return viaDirents(abs);
  const got = lists.readdir(abs, 'utf8', true);
  if (!got) return viaDirents(abs);
  const [names, types] = got;
  const out = new Array<Listed>(names.length);
  for (let i = 0; i < names.length; i++) {
    const t = types[i];
    if (t !== UV_DIRENT_UNKNOWN) out[i] = [names[i], typeOf(t)];
    else {
      const st = lstatNumbers(abs + path.sep + names[i]);
      out[i] = [names[i], !st ? '' : isFileMode(st.mode) ? 'file' : isDirMode(st.mode) ? 'dir' : isLinkMode(st.mode) ? 'link' : ''];
    }
  }
  return out;
}

function sameListing(got: unknown, want: Listed[]): boolean {
  if (!Array.isArray(got) || got.length !== 2 || !Array.isArray(got[0]) || !Array.isArray(got[1])) return false;
  const [names, types] = got as [unknown[], unknown[]];
  if (names.length !== want.length || types.length !== want.length) return false;
  // Known types only: an unknown one is resolved by lstat on either side.
  return want.every(
    ([name, type], i) =>
      names[i] === name && typeof types[i] === 'number' && (types[i] === UV_DIRENT_UNKNOWN || typeOf(types[i] as number) === type),
  );
}
