import fs from 'node:fs';
import path from 'node:path';
import { fail } from '../errors.js';
import { SOURCE_LIMITS, mib } from './limits.js';

// A git source held to the limits an archive source is held to (limits.ts), checked on what was
// fetched BEFORE a file is checked out, so nothing too big reaches the disk, the library or the
// base store. Two guards keep the download itself small: the fetch asks the server to leave out
// every blob over the byte limit (`--filter=blob:limit=`, a file that big breaks the limit on its
// own), and, for servers that ignore the filter, the pack being received is watched and the fetch
// stopped once it holds more than the limit could ever need.

/** The fetch arguments that make the download small where the server allows it. */
export function fetchLimitArgs(): { config: string[]; args: string[] } {
  // unpackLimit=1: every fetch is kept as a pack (never unpacked into loose objects), which the
  // watchdog can measure while it grows.
  return { config: ['-c', 'fetch.unpackLimit=1'], args: [`--filter=blob:limit=${SOURCE_LIMITS.maxBytes}`] };
}

/**
 * Most a pack can take for content within the limits: zlib never grows data by more than a little,
 * and the headers, trees and the commit add some per file.
 */
export function packCap(): number {
  return Math.ceil(SOURCE_LIMITS.maxBytes * 1.05) + SOURCE_LIMITS.maxFiles * 512 + 1024 * 1024;
}

function packBytes(packDir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = fs.readdirSync(packDir);
  } catch {
    return 0;
  }
  for (const n of names) {
    try {
      total += fs.statSync(path.join(packDir, n)).size;
    } catch {
      // renamed or removed meanwhile
    }
  }
  return total;
}

/** Watch the packs git writes under `repo/.git`; `onOver` once they pass `cap` bytes. Returns stop. */
export function watchPack(repo: string, cap: number, onOver: () => void, everyMs = 100): () => void {
  const packDir = path.join(repo, '.git', 'objects', 'pack');
  const timer = setInterval(() => {
    if (packBytes(packDir) > cap) {
      clearInterval(timer);
      onOver();
    }
  }, everyMs);
  return () => clearInterval(timer);
}

export function downloadTooBig(source: string): Error {
  return fail('refused', 'sources.limit.download-too-big', { source, max: mib(SOURCE_LIMITS.maxBytes) });
}

/** One entry of `git ls-tree -r -z`: `<mode> <type> <oid>\t<path>`. */
interface TreeEntry {
  type: string;
  oid: string;
  path: string;
}

export function parseLsTree(out: string): TreeEntry[] {
  const entries: TreeEntry[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [, type, oid] = rec.slice(0, tab).split(' ');
    entries.push({ type: type ?? '', oid: oid ?? '', path: rec.slice(tab + 1) });
  }
  return entries;
}

/** `git cat-file --batch-all-objects --batch-check='%(objectname) %(objectsize)'`: oid → size. */
export function parseSizes(out: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const line of out.split('\n')) {
    const [oid, size] = line.split(' ');
    if (oid && size) sizes.set(oid, Number(size));
  }
  return sizes;
}

/**
 * Refuse a tree over the limits: too many files, a file left out by the size filter (bigger than the
 * whole limit), or too many bytes in all. Files are counted as checked out: the same content twice
 * counts twice.
 */
export function checkTree(source: string, entries: TreeEntry[], sizes: Map<string, number>): void {
  const files = entries.filter((e) => e.type === 'blob');
  const max = SOURCE_LIMITS;
  if (files.length > max.maxFiles)
    throw fail('refused', 'sources.limit.too-many-files', { source, files: files.length, max: max.maxFiles });
  let bytes = 0;
  for (const f of files) {
    const size = sizes.get(f.oid);
    if (size === undefined || size > max.maxBytes)
      throw fail('refused', 'sources.limit.file-too-big', { source, path: f.path, max: mib(max.maxBytes) });
    bytes += size;
  }
  if (bytes > max.maxBytes) throw fail('refused', 'sources.limit.too-big', { source, mb: mib(bytes), max: mib(max.maxBytes) });
}
