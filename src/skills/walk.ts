import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import {
  fstatNumbers,
  isDirMode,
  isFileMode,
  isLinkMode,
  listTyped,
  lstatNumbers as lstatAt,
  type Listed,
  type StatNumbers,
} from './stat-numbers.js';

// One pass over a skill folder. Symlinks are recorded, never followed (no cycles, nothing outside
// the skill is read). Special files (FIFOs, sockets, devices) are skipped and never opened.

export interface SkillFile {
  /** Posix path relative to the skill dir. */
  path: string;
  size: number;
  mtimeMs: number;
  executable: boolean;
  /** Raw link target when the entry is a symlink. */
  symlink?: string;
}

export interface WalkResult {
  files: SkillFile[];
  /** Relative posix paths of every directory (not links) inside the skill. */
  dirs: Set<string>;
  /** Relative paths of `SKILL.md` files in subfolders, with their depth below the skill (1 = `x/SKILL.md`). */
  nested: { path: string; depth: number }[];
  /** Text (UTF-8) of the top-level files named `skill.md` in any casing (read once, here). */
  skillFiles: Map<string, string>;
  /** sha256 of each regular file's content, when walked with `hash`. */
  hashes: Map<string, string>;
  /** Text of the other regular `.md` files up to 1 MB, when walked with `readMarkdown`. */
  texts: Map<string, string>;
  /** With `textBytes`: where each text of `skillFiles` and `texts` (there as '') is in the sink. */
  placed?: Map<string, [number, number]>;
  /**
   * The first folder the walk did not go into because it is nested deeper than MAX_TREE_DEPTH, or
   * the first entry whose path the system refused as too long: nothing below it was read.
   */
  cut?: string;
}

/**
 * Deeper than any skill: a folder tree past this is not walked (the catalog flags the skill,
 * import refuses it). A chain of thousands of folders would otherwise end in ENAMETOOLONG.
 */
export const MAX_TREE_DEPTH = 64;

/** The system refused a path as too long (or as a chain of too many links). */
function tooLong(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENAMETOOLONG' || code === 'ELOOP';
}

export type { Listed } from './stat-numbers.js';

/** VCS metadata is not skill content and changes on every fetch. */
const SKIPPED_DIRS = new Set(['.git']);

export interface WalkOptions {
  /** Hash every regular file's content (for the digest). */
  hash?: boolean;
  /** Keep the content of the top-level skill file (`SKILL.md` in any casing). */
  readSkillFile?: boolean;
  /**
   * Keep the text of Markdown files (read anyway when hashing; the reference checks read the
   * ones SKILL.md points at, which is most of them), so no file is read twice.
   */
  readMarkdown?: boolean;
  /** The skill folder's own listing when the caller has just taken it (saves one readdir). */
  listing?: Listed[];
  /**
   * Told every entry below the folder with its stat as the walk takes it: a folder's before it is
   * listed, a file's before its content is read (the fstat of the open file), a link's own. The
   * catalog's persistent index keeps them (no second walk for stats). `st` is valid during the
   * call only (see stat-numbers.ts).
   */
  onStat?: (relPath: string, st: StatNumbers) => void;
  /**
   * Texts are kept as their bytes in this sink, not decoded (the scan's reading thread hands them
   * to the thread that parses them): `skillFiles` and `texts` then hold '' and `placed` the place.
   */
  textBytes?: TextBytes;
}

const TOP_SKILL_FILE = /^skill\.md$/i;

/** Whether a folder's listing makes it a skill: `SKILL.md`, or a `skill.md` in another casing that is no folder (the casing is lint's business). */
export function hasSkillFile(entries: readonly Listed[]): boolean {
  for (const [name, type] of entries) if (name === 'SKILL.md' || (type !== 'dir' && TOP_SKILL_FILE.test(name))) return true;
  return false;
}

/**
 * `path.join(parent, name)` for an absolute, normalised parent and a name from its listing (no
 * separators, never `.` or `..`): the same string without join's normalising pass, which
 * allocates per character and runs twice per child in a scan.
 */
export function childPath(parent: string, name: string): string {
  return parent.endsWith(path.sep) ? parent + name : parent + path.sep + name;
}

/**
 * A walk's result as JSON-able data and its texts' bytes apart, to cross a thread boundary: text
 * entries are [path, offset, length] into the bytes (one transferred buffer, no copy, where JSON
 * would escape every line break and be parsed again).
 */
export interface PlainWalk {
  files: SkillFile[];
  dirs: string[];
  nested: WalkResult['nested'];
  skillFiles: Array<[string, number, number]>;
  hashes: Array<[string, string]>;
  texts: Array<[string, number, number]>;
  cut?: string;
}

/** Texts kept as their UTF-8 bytes, one after the other in one buffer, each by its place. */
export class TextBytes {
  private buf: Buffer;
  private size = 0;

  /** `reuse`: a buffer handed back by the reader of earlier bytes, if any (fresh pages cost a fault each). */
  constructor(private reuse: () => Buffer | undefined = () => undefined) {
    this.buf = this.fresh();
  }

  private fresh(): Buffer {
    return this.reuse() ?? Buffer.allocUnsafeSlow(1 << 18);
  }

  /** Keeps a copy of `data`; returns its offset and length. */
  add(data: Uint8Array): [number, number] {
    this.room(data.length).set(data);
    return this.commit(data.length);
  }

  /** Room for `n` more bytes at the end, to read into (then `commit` what was read). */
  room(n: number): Buffer {
    const at = this.size;
    if (at + n > this.buf.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, at + n));
      this.buf.copy(grown, 0, 0, at);
      this.buf = grown;
    }
    return this.buf.subarray(at, at + n);
  }

  /** The next `n` bytes of the room are kept; returns their offset and length. */
  commit(n: number): [number, number] {
    const at = this.size;
    this.size += n;
    return [at, n];
  }

  /** The bytes, in a buffer of their own that may be transferred (and then is no longer this sink's). */
  take(): Buffer {
    const out = this.buf.subarray(0, this.size);
    this.buf = this.fresh();
    this.size = 0;
    return out;
  }
}

/** A walk made with `textBytes` as plain data (its texts are where `placed` says). */
export function plainWalk(w: WalkResult): PlainWalk {
  const placed = w.placed ?? new Map<string, [number, number]>();
  const place = (k: string): [string, number, number] => [k, ...(placed.get(k) ?? [0, 0])];
  return {
    files: w.files,
    dirs: [...w.dirs],
    nested: w.nested,
    skillFiles: [...w.skillFiles.keys()].map(place),
    hashes: [...w.hashes],
    texts: [...w.texts.keys()].map(place),
    ...(w.cut !== undefined ? { cut: w.cut } : {}),
  };
}

export function walkFromPlain(p: PlainWalk, bytes: Buffer): WalkResult {
  const text = ([k, at, len]: [string, number, number]): [string, string] => [k, bytes.toString('utf8', at, at + len)];
  return {
    files: p.files,
    dirs: new Set(p.dirs),
    nested: p.nested,
    skillFiles: new Map(p.skillFiles.map(text)),
    hashes: new Map(p.hashes),
    texts: new Map(p.texts.map(text)),
    ...(p.cut !== undefined ? { cut: p.cut } : {}),
  };
}

/** readdir with entry types; null when the folder cannot be read. */
export function listDir(abs: string): Listed[] | null {
  try {
    return listTyped(abs);
  } catch {
    return null;
  }
}

function isMarkdown(name: string): boolean {
  const n = name.length;
  return n > 3 && name.charCodeAt(n - 3) === 46 && (name.charCodeAt(n - 2) | 32) === 109 && (name.charCodeAt(n - 1) | 32) === 100;
}

/**
 * One pass: readdir per folder, then lstat per file, or open + fstat + read for the files whose
 * content is wanted. With no options nothing is read: a cheap signature walk.
 */
export function walkSkill(dir: string, opts: WalkOptions = {}): WalkResult {
  const files: SkillFile[] = [];
  const dirs = new Set<string>();
  const nested: { path: string; depth: number }[] = [];
  const skillFiles = new Map<string, string>();
  const hashes = new Map<string, string>();
  const texts = new Map<string, string>();
  const hash = opts.hash === true;
  const markdown = opts.readMarkdown === true;
  const onStat = opts.onStat;
  const sink = opts.textBytes;
  const placed = new Map<string, [number, number]>();
  let cut: string | undefined;
  // lstat that never throws: a path the system finds too long marks where the walk was cut.
  const statEntry = (full: string, relPath: string): StatNumbers | undefined => {
    try {
      return lstatAt(full);
    } catch (err) {
      if (tooLong(err)) cut ??= relPath;
      return undefined;
    }
  };
  const stack: { rel: string; depth: number }[] = [{ rel: '', depth: 0 }];
  while (stack.length) {
    const { rel, depth } = stack.pop()!;
    const abs = rel ? path.join(dir, rel) : dir;
    let entries: Listed[] | null = null;
    try {
      entries = !rel && opts.listing ? opts.listing : listTyped(abs);
    } catch (err) {
      if (tooLong(err)) cut ??= rel;
    }
    if (!entries) continue; // unreadable subfolder: skip it, keep the rest of the skill
    for (const [name, listedKind] of entries) {
      const relPath = rel ? `${rel}/${name}` : name;
      let kind = listedKind;
      const full = `${abs}${path.sep}${name}`;
      let st: StatNumbers | undefined;
      if (!kind) {
        // Some filesystems do not report entry types; ask once.
        st = statEntry(full, relPath);
        kind = !st ? '' : isFileMode(st.mode) ? 'file' : isDirMode(st.mode) ? 'dir' : isLinkMode(st.mode) ? 'link' : '';
      }
      if (kind === 'dir') {
        if (SKIPPED_DIRS.has(name)) continue;
        if (depth + 1 > MAX_TREE_DEPTH) {
          cut ??= relPath;
          continue;
        }
        if (onStat) {
          st ??= statEntry(full, relPath);
          if (st) onStat(relPath, st);
        }
        dirs.add(relPath);
        stack.push({ rel: relPath, depth: depth + 1 });
        continue;
      }
      if (kind === 'link') {
        st ??= statEntry(full, relPath);
        if (!st) continue;
        onStat?.(relPath, st);
        let target = '';
        try {
          target = fs.readlinkSync(full);
        } catch {
          /* raced away: keep an empty target */
        }
        files.push({ path: relPath, size: st.size, mtimeMs: st.mtimeMs, executable: false, symlink: target });
        continue;
      }
      if (kind !== 'file') {
        if (onStat && (st ??= statEntry(full, relPath))) onStat(relPath, st);
        continue;
      }
      const isSkillFile = opts.readSkillFile === true && depth === 0 && name.length === 8 && name.toLowerCase() === 'skill.md';
      const asText = isSkillFile || (markdown && isMarkdown(name));
      if (asText || hash) {
        // fstat on the open file replaces the lstat: syscalls dominate the cost of a scan.
        const r = readRegular(full, asText ? (sink ? sink : 'text') : null, hash, OPEN_FLAGS, isSkillFile);
        if (!r) {
          // Unreadable (or swapped since listed): its stat still says when that changes.
          if (onStat && (st ??= statEntry(full, relPath))) onStat(relPath, st);
          continue;
        }
        st = r.st;
        onStat?.(relPath, st);
        if (r.place) {
          if (isSkillFile || st.size <= WHOLE_READ_MAX) placed.set(relPath, r.place);
          if (isSkillFile) skillFiles.set(relPath, '');
          else if (st.size <= WHOLE_READ_MAX) texts.set(relPath, '');
        } else if (r.text !== undefined) {
          if (isSkillFile) skillFiles.set(relPath, r.text);
          else if (st.size <= WHOLE_READ_MAX) texts.set(relPath, r.text);
        }
        if (r.hash) hashes.set(relPath, r.hash);
      } else {
        st ??= statEntry(full, relPath);
        if (st) onStat?.(relPath, st);
        if (!st || !isFileMode(st.mode)) continue;
      }
      files.push({ path: relPath, size: st.size, mtimeMs: st.mtimeMs, executable: (st.mode & 0o111) !== 0 });
      if (depth > 0 && name === 'SKILL.md') nested.push({ path: relPath, depth });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  nested.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, dirs, nested, skillFiles, hashes, texts, ...(sink ? { placed } : {}), ...(cut !== undefined ? { cut } : {}) };
}

/** Files up to this size are read whole (into a buffer reused across files); larger ones are streamed into the hash. */
const WHOLE_READ_MAX = 1 << 20;
/** Bound on the SKILL.md text kept in memory (the spec wants bodies under ~20 KB anyway). */
const SKILL_FILE_MAX = 16 << 20;
// O_NONBLOCK: opening a FIFO must not hang the scan (fstat then refuses anything but a file).
const BASE_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
// O_NOFOLLOW: the entry was a regular file when listed; never read through a link swapped in since.
const OPEN_FLAGS = BASE_FLAGS | (fs.constants.O_NOFOLLOW ?? 0);

// One buffer per thread for every whole read: a fresh buffer per file is an off-heap allocation
// each, and tens of thousands of them in a scan keep the garbage collector busy.
let scratch: Buffer | null = null;
function scratchBuffer(): Buffer {
  return (scratch ??= Buffer.allocUnsafeSlow(WHOLE_READ_MAX));
}

/** sha256 hex of bytes: the one-shot `crypto.hash` where Node has it (no Hash object per file). */
type OneShot = (alg: string, data: Uint8Array | string, enc: 'hex') => string;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;
/** A string is hashed as its UTF-8 bytes, as `Hash.update` does. */
export const sha256Hex: (b: Uint8Array | string) => string = oneShot
  ? (b) => oneShot('sha256', b, 'hex')
  : (b) => crypto.createHash('sha256').update(b).digest('hex');

/**
 * The text of a skill file reached through a symlink: only when the target is a regular file
 * (never a device or FIFO), and bounded like any skill file. Null when it cannot be read.
 */
export function readLinkedSkillFile(file: string): Buffer | null {
  return readRegular(file, 'bytes', false, BASE_FLAGS)?.bytes ?? null;
}

interface ReadResult {
  /** Valid until the next stat (see stat-numbers.ts). */
  st: StatNumbers;
  text?: string;
  bytes?: Buffer;
  /** Where the text went in a TextBytes sink. */
  place?: [number, number];
  hash?: string;
}

/**
 * open + fstat + read + close: the content kept as UTF-8 text or as its own bytes (the first
 * SKILL_FILE_MAX bytes; above WHOLE_READ_MAX only with `keepLarge`), and/or hashed whole
 * (streamed when large).
 */
function readRegular(
  file: string,
  keep: 'text' | 'bytes' | TextBytes | null,
  hash: boolean,
  flags = OPEN_FLAGS,
  keepLarge = true,
): ReadResult | null {
  let fd: number;
  try {
    fd = fs.openSync(file, flags);
  } catch {
    return null;
  }
  try {
    const st = fstatNumbers(fd);
    if (!isFileMode(st.mode)) return null;
    if (st.size <= WHOLE_READ_MAX) {
      if (keep instanceof TextBytes) {
        // Read straight into the sink: no copy of the text.
        const room = keep.room(st.size > 0 ? st.size : WHOLE_READ_MAX);
        const len = readInto(fd, room, room.length);
        return { st, place: keep.commit(len), hash: hash ? sha256Hex(room.subarray(0, len)) : undefined };
      }
      const buf = scratchBuffer();
      // Exactly the size fstat gave (no extra read to find the end); a file that claims to be empty
      // (some pseudo-files) is read to its end, bounded by the buffer.
      const len = readInto(fd, buf, st.size > 0 ? st.size : buf.length);
      const data = buf.subarray(0, len);
      return {
        st,
        text: keep === 'text' ? buf.toString('utf8', 0, len) : undefined,
        bytes: keep === 'bytes' ? Buffer.from(data) : undefined,
        hash: hash ? sha256Hex(data) : undefined,
      };
    }
    // Large: a giant skill file keeps only its first SKILL_FILE_MAX bytes; the hash takes all.
    let kept: Buffer | undefined;
    if (keep && !keepLarge) keep = null;
    if (keep) {
      kept = Buffer.allocUnsafe(Math.min(st.size, SKILL_FILE_MAX));
      kept = kept.subarray(0, readInto(fd, kept, kept.length));
    }
    const out: ReadResult = {
      st,
      text: keep === 'text' ? kept!.toString('utf8') : undefined,
      bytes: keep === 'bytes' ? kept : undefined,
      place: keep instanceof TextBytes ? keep.add(kept!) : undefined,
    };
    if (!hash) return out;
    const h = crypto.createHash('sha256');
    if (kept) h.update(kept);
    const chunk = scratchBuffer();
    for (let n = fs.readSync(fd, chunk, 0, chunk.length, null); n > 0; n = fs.readSync(fd, chunk, 0, chunk.length, null)) {
      h.update(chunk.subarray(0, n));
    }
    out.hash = h.digest('hex');
    return out;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Read up to `want` bytes into the start of `buf`; fewer at end of file. */
function readInto(fd: number, buf: Buffer, want: number): number {
  let len = 0;
  while (len < want) {
    const n = fs.readSync(fd, buf, len, want - len, null);
    if (n <= 0) break;
    len += n;
  }
  return len;
}

/**
 * sha256 over the sorted files. Each file adds `path \0 kind sha256(content)`, which is
 * self-delimiting (paths hold no NUL, the inner hash has a fixed length). A link's content is its
 * raw target; a linked skill file also adds its content.
 */
export function digestSkill(files: SkillFile[], hashes: Map<string, string>, linkedContent?: Map<string, Buffer>): string {
  // One string hashed at once: the same bytes as one update per part, without a Hash object per skill.
  let text = '';
  for (const f of files) {
    if (f.symlink !== undefined) {
      text += `${f.path}\0L${sha256Hex(Buffer.from(f.symlink))}`;
      const content = linkedContent?.get(f.path);
      if (content) text += `C${sha256Hex(content)}`;
    } else {
      text += `${f.path}\0F${hashes.get(f.path) ?? UNREADABLE}`;
    }
  }
  return sha256Hex(text);
}

const UNREADABLE = 'unreadable'.padEnd(64, '-');
