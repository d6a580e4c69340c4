import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

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
  /** Contents of the top-level files named `skill.md` in any casing (read once, here). */
  skillFiles: Map<string, Buffer>;
  /** sha256 of each regular file's content, when walked with `hash`. */
  hashes: Map<string, string>;
}

/** VCS metadata is not skill content and changes on every fetch. */
const SKIPPED_DIRS = new Set(['.git']);

export interface WalkOptions {
  /** Hash every regular file's content (for the digest). */
  hash?: boolean;
  /** Keep the content of the top-level skill file (`SKILL.md` in any casing). */
  readSkillFile?: boolean;
}

/**
 * One pass: readdir per folder, then lstat per file, or open + fstat + read for the files whose
 * content is wanted. With no options nothing is read: a cheap signature walk.
 */
export function walkSkill(dir: string, opts: WalkOptions = {}): WalkResult {
  const files: SkillFile[] = [];
  const dirs = new Set<string>();
  const nested: { path: string; depth: number }[] = [];
  const skillFiles = new Map<string, Buffer>();
  const hashes = new Map<string, string>();
  const stack: { rel: string; depth: number }[] = [{ rel: '', depth: 0 }];
  while (stack.length) {
    const { rel, depth } = stack.pop()!;
    const abs = rel ? path.join(dir, rel) : dir;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch {
      continue; // unreadable subfolder: skip it, keep the rest of the skill
    }
    for (const e of entries) {
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      let kind = e.isFile() ? 'file' : e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'link' : '';
      const full = path.join(abs, e.name);
      let st: fs.Stats | undefined;
      if (!kind) {
        // Some filesystems do not report entry types; ask once.
        st = fs.lstatSync(full, { throwIfNoEntry: false });
        kind = !st ? '' : st.isFile() ? 'file' : st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : '';
      }
      if (kind === 'dir') {
        if (SKIPPED_DIRS.has(e.name)) continue;
        dirs.add(relPath);
        stack.push({ rel: relPath, depth: depth + 1 });
        continue;
      }
      if (kind === 'link') {
        st ??= fs.lstatSync(full, { throwIfNoEntry: false });
        if (!st) continue;
        let target = '';
        try {
          target = fs.readlinkSync(full);
        } catch {
          /* raced away: keep an empty target */
        }
        files.push({ path: relPath, size: st.size, mtimeMs: st.mtimeMs, executable: false, symlink: target });
        continue;
      }
      if (kind !== 'file') continue;
      const isSkillFile = opts.readSkillFile === true && depth === 0 && e.name.length === 8 && e.name.toLowerCase() === 'skill.md';
      if (isSkillFile || opts.hash) {
        // fstat on the open file replaces the lstat: syscalls dominate the cost of a scan.
        const r = readRegular(full, isSkillFile, opts.hash === true);
        if (!r) continue;
        st = r.st;
        if (r.content) skillFiles.set(relPath, r.content);
        if (r.hash) hashes.set(relPath, r.hash);
      } else {
        st ??= fs.lstatSync(full, { throwIfNoEntry: false });
        if (!st || !st.isFile()) continue;
      }
      files.push({ path: relPath, size: st.size, mtimeMs: st.mtimeMs, executable: (st.mode & 0o111) !== 0 });
      if (depth > 0 && e.name === 'SKILL.md') nested.push({ path: relPath, depth });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  nested.sort((a, b) => (a.path < b.path ? -1 : 1));
  return { files, dirs, nested, skillFiles, hashes };
}

const chunk = Buffer.allocUnsafe(1 << 16);
/** Files up to this size are read whole; larger ones are streamed into the hash. */
const WHOLE_READ_MAX = 1 << 20;
/** Bound on the SKILL.md text kept in memory (the spec wants bodies under ~20 KB anyway). */
const SKILL_FILE_MAX = 16 << 20;
// O_NONBLOCK: opening a FIFO must not hang the scan (fstat then refuses anything but a file).
const BASE_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);
// O_NOFOLLOW: the entry was a regular file when listed; never read through a link swapped in since.
const OPEN_FLAGS = BASE_FLAGS | (fs.constants.O_NOFOLLOW ?? 0);

/**
 * The text of a skill file reached through a symlink: only when the target is a regular file
 * (never a device or FIFO), and bounded like any skill file. Null when it cannot be read.
 */
export function readLinkedSkillFile(file: string): Buffer | null {
  return readRegular(file, true, false, BASE_FLAGS)?.content ?? null;
}

/** open + fstat + read + close: the skill file whole, or any file into a hash (streamed when large). */
function readRegular(file: string, keep: boolean, hash: boolean, flags = OPEN_FLAGS): { st: fs.Stats; content?: Buffer; hash?: string } | null {
  let fd: number;
  try {
    fd = fs.openSync(file, flags);
  } catch {
    return null;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return null;
    if (st.size <= WHOLE_READ_MAX || (keep && st.size <= SKILL_FILE_MAX)) {
      const content = readWhole(fd, st.size);
      return { st, content: keep ? content : undefined, hash: hash ? createHash('sha256').update(content).digest('hex') : undefined };
    }
    // Large: stream into the hash; a giant skill file keeps only its first SKILL_FILE_MAX bytes.
    const h = createHash('sha256');
    let content: Buffer | undefined;
    if (keep) {
      content = readWhole(fd, SKILL_FILE_MAX);
      h.update(content);
    }
    if (!hash) return { st, content };
    for (let n = fs.readSync(fd, chunk, 0, chunk.length, null); n > 0; n = fs.readSync(fd, chunk, 0, chunk.length, null)) {
      h.update(chunk.subarray(0, n));
    }
    return { st, content, hash: h.digest('hex') };
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Read `size` bytes (the fstat size); keep reading only if the file turns out longer or shorter. */
function readWhole(fd: number, size: number): Buffer {
  let buf = Buffer.allocUnsafe(size > 0 ? size : 4096);
  let len = 0;
  for (;;) {
    if (len === buf.length) {
      if (len === size) break; // got exactly what fstat promised
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, len);
      buf = bigger;
    }
    const n = fs.readSync(fd, buf, len, buf.length - len, null);
    if (n <= 0) break;
    len += n;
  }
  return len === buf.length ? buf : buf.subarray(0, len);
}

/**
 * sha256 over the sorted files. Each file adds `path \0 kind sha256(content)`, which is
 * self-delimiting (paths hold no NUL, the inner hash has a fixed length). A link's content is its
 * raw target; a linked skill file also adds its content.
 */
export function digestSkill(files: SkillFile[], hashes: Map<string, string>, linkedContent?: Map<string, Buffer>): string {
  const h = createHash('sha256');
  for (const f of files) {
    if (f.symlink !== undefined) {
      h.update(`${f.path}\0L${sha256(Buffer.from(f.symlink))}`);
      const content = linkedContent?.get(f.path);
      if (content) h.update(`C${sha256(content)}`);
    } else {
      h.update(`${f.path}\0F${hashes.get(f.path) ?? 'unreadable'.padEnd(64, '-')}`);
    }
  }
  return h.digest('hex');
}

function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}
