import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { Transform } from 'node:stream';
import yauzl from 'yauzl';
import { fail, SkillDockError } from '../errors.js';
import type { MessageParams, MessageRef } from '../contract/index.js';

// Extract a `.zip` / `.skill` archive into a staging dir, refusing anything hostile. Every entry is
// checked from the central directory BEFORE a single byte is written; while inflating, the real
// byte counts are enforced again (a lying header cannot get past the caps).

export interface ArchiveLimits {
  /** Total uncompressed bytes (default 200 MB). */
  maxBytes: number;
  /** Number of entries (default 10,000). */
  maxFiles: number;
  /** Uncompressed/compressed ratio allowed for any entry bigger than `ratioMinBytes` (default 200). */
  maxRatio: number;
  ratioMinBytes: number;
}

/** Folder levels and characters an entry's path may have. */
export const MAX_DEPTH = 32;
export const MAX_NAME_CHARS = 1024;

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxBytes: 200 * 1024 * 1024,
  maxFiles: 10_000,
  maxRatio: 200,
  ratioMinBytes: 1024 * 1024,
};

export interface ArchivePlan {
  files: { name: string; size: number; mode: number }[];
  dirs: string[];
  totalBytes: number;
}

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFREG = 0o100000;
const S_IFLNK = 0o120000;
/** Made-by host ids whose high attribute bytes carry a Unix mode (Unix, macOS/Darwin). */
const UNIX_HOSTS = new Set([3, 19]);

/** Skipped, never extracted: macOS resource forks and Finder litter. */
export function isLitter(name: string): boolean {
  return name.startsWith('__MACOSX/') || name === '.DS_Store' || name.endsWith('/.DS_Store');
}

/** A refusal naming the archive and why (`archive.<why>`); `detail` (a library's own words) stays in details only. */
export function refuse(archive: string, why: string, params?: MessageParams, detail?: string): SkillDockError {
  const reason: MessageRef = params ? { key: `archive.${why}`, params } : { key: `archive.${why}` };
  return fail('refused', 'archive.refused', { archive: path.basename(archive), why: reason }, detail ? { archive, detail } : { archive });
}

export function checkName(archive: string, raw: string): string {
  if (raw.includes('\0')) throw refuse(archive, 'nul');
  if (raw.includes('\\')) throw refuse(archive, 'backslash', { entry: raw });
  if (raw.startsWith('/') || /^[a-zA-Z]:/.test(raw)) throw refuse(archive, 'absolute', { entry: raw });
  const parts = raw.split('/');
  if (parts.includes('..')) throw refuse(archive, 'zip-slip', { entry: raw });
  const clean = parts.filter((p) => p !== '' && p !== '.').join('/');
  for (const p of parts) if (p.length > 255) throw refuse(archive, 'long-name', { entry: raw.slice(0, 80) });
  return clean;
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return (yauzl as unknown as { openPromise(p: string, o: yauzl.Options): Promise<yauzl.ZipFile> }).openPromise(file, {
    lazyEntries: true,
    autoClose: false,
    strictFileNames: true,
    validateEntrySizes: true,
    decodeStrings: true,
  });
}

function corrupt(archive: string, err: unknown): SkillDockError {
  const msg = (err as Error)?.message ?? String(err);
  // yauzl's own name checks (same rules as ours) fire before we see the entry
  if (/absolute path/.test(msg)) return refuse(archive, 'any-absolute', undefined, msg);
  if (/invalid relative path/.test(msg)) return refuse(archive, 'any-zip-slip', undefined, msg);
  if (/too many bytes in the stream/.test(msg)) return refuse(archive, 'any-bomb', undefined, msg);
  if (/invalid characters in fileName/.test(msg)) return refuse(archive, 'any-bad-chars', undefined, msg);
  return refuse(archive, 'corrupt', undefined, msg);
}

/** Read the central directory and check every entry against the limits and safety rules. */
async function plan(
  archive: string,
  zip: yauzl.ZipFile,
  limits: ArchiveLimits,
): Promise<{ plan: ArchivePlan; entries: Map<string, yauzl.Entry> }> {
  if (zip.entryCount > limits.maxFiles) throw refuse(archive, 'too-many', { count: zip.entryCount, max: limits.maxFiles });
  const out: ArchivePlan = { files: [], dirs: [], totalBytes: 0 };
  const entries = new Map<string, yauzl.Entry>();
  const seen = new Set<string>();
  let compressedTotal = 0;
  const iter = (zip as unknown as { eachEntry(): AsyncIterable<yauzl.Entry> }).eachEntry();
  try {
    for await (const entry of iter) {
      const name = checkName(archive, entry.fileName);
      if (isLitter(entry.fileName) || name === '') continue;
      // Far deeper than any skill; thousands of levels overflow paths and recursive walks.
      if (name.split('/').length > MAX_DEPTH || name.length > MAX_NAME_CHARS) {
        throw refuse(archive, 'too-deep', { entry: `${name.slice(0, 60)}…`, max: MAX_DEPTH });
      }
      if (entry.isEncrypted()) throw refuse(archive, 'encrypted', { entry: name });
      const host = entry.versionMadeBy >> 8;
      const mode = UNIX_HOSTS.has(host) ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
      const type = mode & S_IFMT;
      const isDir = entry.fileName.endsWith('/') || type === S_IFDIR;
      if (type === S_IFLNK) throw refuse(archive, 'symlink', { entry: name });
      if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw refuse(archive, 'special', { entry: name });
      once(archive, seen, name);
      if (isDir) {
        out.dirs.push(name);
        continue;
      }
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        throw refuse(archive, 'method', { entry: name, method: entry.compressionMethod });
      }
      const size = entry.uncompressedSize;
      out.totalBytes += size;
      if (out.totalBytes > limits.maxBytes) {
        throw refuse(archive, 'too-big', { mb: Math.round(limits.maxBytes / 1048576) });
      }
      if (size > limits.ratioMinBytes && size / Math.max(1, entry.compressedSize) > limits.maxRatio) {
        throw refuse(archive, 'entry-bomb', { entry: name, ratio: Math.round(size / Math.max(1, entry.compressedSize)) });
      }
      compressedTotal += entry.compressedSize;
      out.files.push({ name, size, mode: mode & 0o111 ? 0o755 : 0o644 });
      entries.set(name, entry);
    }
  } catch (err) {
    if (err instanceof SkillDockError) throw err;
    throw corrupt(archive, err);
  }
  // Many small entries that each stay under the per-entry threshold add up to a bomb too.
  if (out.totalBytes > limits.ratioMinBytes * 8 && out.totalBytes / Math.max(1, compressedTotal) > limits.maxRatio) {
    throw refuse(archive, 'bomb', { ratio: Math.round(out.totalBytes / Math.max(1, compressedTotal)) });
  }
  checkLayout(archive, out);
  return { plan: out, entries };
}

/** An entry named twice (also in another case or accent form) is refused. */
export function once(archive: string, seen: Set<string>, name: string): void {
  const key = name.normalize('NFC').toLowerCase();
  if (seen.has(key)) throw refuse(archive, 'twice', { entry: name });
  seen.add(key);
}

/**
 * Checks on the whole listing, whatever the archive format: folders spelled two ways, and entries
 * inside a file.
 */
export function checkLayout(archive: string, p: Pick<ArchivePlan, 'files' | 'dirs'>): void {
  const problem = layoutProblem(
    p.files.map((f) => f.name),
    p.dirs,
  );
  if (problem) throw refuse(archive, problem.why, problem.params);
}

/**
 * The one rule for the names a skill arrives with, from an archive or a git tree (`/`-separated
 * paths): no two spelled differently only in case or accents, no entry inside a file. Null when
 * the names can land on any disk; else why not, as an `archive.<why>` reason.
 */
export function layoutProblem(files: string[], dirs: string[] = []): { why: 'case-twin' | 'inside-file'; params: MessageParams } | null {
  // Names spelled two ways (`Tool/` and `tool/`, `SKILL.md` and `skill.md`, or composed and
  // decomposed accents) are one entry on a case-insensitive disk: what lands there would depend
  // on the machine.
  const spellings = new Map<string, string>();
  for (const n of [...files, ...dirs]) {
    const parts = n.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const spelled = parts.slice(0, i).join('/');
      const key = spelled.normalize('NFC').toLowerCase();
      const other = spellings.get(key);
      if (other !== undefined && other !== spelled) return { why: 'case-twin', params: { entry: spelled, other } };
      spellings.set(key, spelled);
    }
  }
  // A file and a folder of the same name (or a file used as a folder) cannot both exist.
  const fileNames = new Set(files.map((f) => f.toLowerCase()));
  for (const n of [...files, ...dirs]) {
    const parts = n.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (fileNames.has(parts.slice(0, i).join('/').toLowerCase())) return { why: 'inside-file', params: { entry: n } };
    }
  }
  return null;
}

/** Counts real inflated bytes and aborts past the cap, whatever the headers said. */
function byteCap(limit: { left: number }, archive: string, name: string, onBytes?: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      limit.left -= chunk.length;
      if (limit.left < 0) return cb(refuse(archive, 'more-than-declared', { entry: name }));
      onBytes?.(chunk.length);
      cb(null, chunk);
    },
  });
}

/** The CRC-32 of the bytes going through, as zip stores it for each entry. */
function checksum(sum: { crc: number }): Transform {
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      sum.crc = zlib.crc32(chunk, sum.crc);
      cb(null, chunk);
    },
  });
}

export interface ExtractOptions {
  limits?: Partial<ArchiveLimits>;
  onBytes?: (n: number) => void;
}

/** Extract `archive` into `dest` (must not exist; created here). Throws `refused` on anything hostile. */
export async function extractArchive(archive: string, dest: string, opts: ExtractOptions = {}): Promise<ArchivePlan> {
  const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...opts.limits };
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(archive);
  } catch (err) {
    throw corrupt(archive, err);
  }
  try {
    const { plan: p, entries } = await plan(archive, zip, limits);
    fs.mkdirSync(dest);
    const budget = { left: limits.maxBytes };
    const made = new Set<string>(['']);
    const ensureDir = (rel: string) => {
      if (made.has(rel)) return;
      ensureDir(path.posix.dirname(rel) === '.' ? '' : path.posix.dirname(rel));
      fs.mkdirSync(path.join(dest, rel));
      made.add(rel);
    };
    for (const d of p.dirs) ensureDir(d);
    for (const f of p.files) {
      const parent = path.posix.dirname(f.name);
      ensureDir(parent === '.' ? '' : parent);
      const entry = entries.get(f.name)!;
      const target = path.join(dest, f.name);
      try {
        const stream = await zip.openReadStreamPromise(entry);
        const out = fs.createWriteStream(target, { flags: 'wx', mode: f.mode });
        const cap = { left: Math.min(f.size, budget.left) };
        const sum = { crc: 0 };
        await pipeline(stream, byteCap(cap, archive, f.name, opts.onBytes), checksum(sum), out);
        budget.left -= f.size - cap.left;
        // The zip library does not verify checksums: a damaged entry would be imported as is.
        if (sum.crc !== entry.crc32 >>> 0) throw refuse(archive, 'checksum', { entry: f.name });
      } catch (err) {
        if (err instanceof SkillDockError) throw err;
        throw corrupt(archive, err);
      }
    }
    return p;
  } finally {
    zip.close();
  }
}
