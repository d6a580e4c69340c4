import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { SkillDockError, fail } from '../errors.js';
import { isInside } from '../base/extpath.js';
import { lstatOrNull, removeTreeSafely } from '../library/tree.js';

/**
 * Browser drag-and-drop lands here: the page cannot hand us real paths, so it streams each file
 * of the dropped folders and archives into a fresh batch dir under `<home>/uploads/`, keeping
 * relative paths, then imports the batch's top-level entries through the library contract.
 */

export interface UploadLimits {
  /** Bytes per file. */
  maxFileBytes: number;
  /** Bytes per batch, all files together. */
  maxBatchBytes: number;
  maxFiles: number;
  /**
   * Batches older than this are swept (at server start and hourly). A batch is removed as soon as
   * its import is over; only one whose import waits for conflict answers, or one left by an
   * upload that failed or a server that stopped, stays until then.
   */
  maxAgeMs: number;
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  maxFileBytes: 64 * 1024 * 1024,
  maxBatchBytes: 512 * 1024 * 1024,
  maxFiles: 20_000,
  maxAgeMs: 6 * 60 * 60 * 1000,
};

const BATCH_RE = /^b-[0-9]{13}-[a-f0-9]{16}$/;
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/;
const BIDI_ALL = new RegExp(BIDI.source, 'g');

/** How a case-insensitive, normalising file system (macOS, Windows) names a path. */
function folded(p: string): string {
  return p.normalize('NFC').toLowerCase();
}
const MAX_PATH_CHARS = 1024;
const MAX_DEPTH = 32;

/** A client-given path as it may be shown back: control characters and direction marks as `?`. */
function shown(rel: string): string {
  // eslint-disable-next-line no-control-regex
  return rel.replace(BIDI_ALL, '?').replace(/[\u0000-\u001f\u007f]/g, '?');
}

/** A byte limit for people: `64 MB`, `512 KB`, `100 B` (units read the same in every language). */
export function sizeLimit(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let n = bytes;
  let u = 0;
  while (n >= 1024 && u < units.length - 1 && n % 1024 === 0) {
    n /= 1024;
    u += 1;
  }
  return `${n} ${units[u]}`;
}

/** Validate a client-given relative path; returns its segments or throws `refused`. */
export function safeRelativePath(rel: unknown): string[] {
  if (typeof rel !== 'string' || rel.length === 0 || rel.length > MAX_PATH_CHARS) {
    throw fail('refused', 'upload.path-missing');
  }
  // Backslashes, a leading slash, control characters, a colon (a drive prefix `C:x` or an NTFS
  // stream) and invisible direction marks (a name that reads differently from what it is).
  // eslint-disable-next-line no-control-regex
  if (rel.includes('\\') || rel.startsWith('/') || /[\u0000-\u001f\u007f:]/.test(rel) || BIDI.test(rel)) {
    throw fail('refused', 'upload.path-refused', { path: shown(rel) });
  }
  const segments = rel.split('/');
  if (segments.length > MAX_DEPTH) throw fail('refused', 'upload.path-too-deep', { max: MAX_DEPTH, path: shown(rel) });
  for (const s of segments) {
    if (s === '' || s === '.' || s === '..' || Buffer.byteLength(s) > 255 || /^[a-zA-Z]:$/.test(s)) {
      throw fail('refused', 'upload.path-refused', { path: shown(rel) });
    }
  }
  return segments;
}

/**
 * Create the folders `segments` under `base`, one level at a time, refusing before any write when
 * one of them exists as a link or a file: a recursive mkdir would create folders through a link
 * planted in the batch, outside it, before any later check could refuse.
 */
export function makeDirsInside(base: string, segments: string[]): void {
  let dir = base;
  for (const s of segments) {
    dir = path.join(dir, s);
    const st = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (st === undefined) fs.mkdirSync(dir);
    else if (st.isSymbolicLink() || !st.isDirectory()) throw fail('refused', 'upload.escapes', { path: segments.join('/') });
  }
}

interface Batch {
  dir: string;
  bytes: number;
  files: number;
  tops: Set<string>;
  /** Each path and folder of the batch by its folded spelling: twins differing only in case are refused. */
  spellings: Map<string, string>;
}

export class UploadStaging {
  private batches = new Map<string, Batch>();

  constructor(
    readonly stagingDir: string,
    readonly limits: UploadLimits = DEFAULT_UPLOAD_LIMITS,
  ) {}

  /** Remove batches left over from earlier runs (crash, or imported long ago). */
  sweep(now = Date.now()): void {
    if (!this.stagingIsOurs()) return;
    for (const name of fs.readdirSync(this.stagingDir)) {
      if (!BATCH_RE.test(name)) continue; // never touch what we did not create
      const created = Number(name.slice(2, 15));
      if (now - created < this.limits.maxAgeMs) continue;
      this.discard(name);
    }
  }

  /** The staging dir is a real folder, not a link (nothing is deleted through one). */
  private stagingIsOurs(): boolean {
    const st = lstatOrNull(this.stagingDir);
    return !!st && st.isDirectory() && !st.isSymbolicLink();
  }

  /** Remove one batch: its folders and files, links unlinked and never followed. */
  discard(batch: string): void {
    if (!BATCH_RE.test(batch)) return;
    this.batches.delete(batch);
    if (this.stagingIsOurs()) removeTreeSafely(path.join(this.stagingDir, batch));
  }

  /** The batches that staged paths (as `finish` gave them) belong to. */
  batchesOf(paths: unknown[]): string[] {
    const out = new Set<string>();
    for (const p of paths) {
      if (typeof p !== 'string' || !path.isAbsolute(p) || !isInside(p, this.stagingDir)) continue;
      const first = path.relative(this.stagingDir, p).split(path.sep)[0]!;
      if (BATCH_RE.test(first)) out.add(first);
    }
    return [...out];
  }

  /**
   * An import of staged paths is over: their batches go, unless the import stopped to ask about
   * conflicts (`awaitingAnswers`); the client then runs it again on the same paths with the answers.
   */
  settle(paths: unknown[], awaitingAnswers: boolean): void {
    if (awaitingAnswers) return;
    for (const batch of this.batchesOf(paths)) this.discard(batch);
  }

  begin(): { batch: string } {
    fs.mkdirSync(this.stagingDir, { recursive: true });
    const batch = `b-${String(Date.now()).padStart(13, '0')}-${randomBytes(8).toString('hex')}`;
    const dir = path.join(this.stagingDir, batch);
    fs.mkdirSync(dir);
    this.batches.set(batch, { dir, bytes: 0, files: 0, tops: new Set(), spellings: new Map() });
    return { batch };
  }

  private get(batch: unknown): Batch {
    const b = typeof batch === 'string' && BATCH_RE.test(batch) ? this.batches.get(batch) : undefined;
    if (!b) throw fail('not-found', 'upload.unknown-batch');
    return b;
  }

  /** Stream one file into the batch. Existing files are never overwritten; limits are enforced while streaming. */
  async writeFile(batch: unknown, rel: unknown, body: Readable, declaredLength?: number): Promise<{ path: string; bytes: number }> {
    const b = this.get(batch);
    const segments = safeRelativePath(rel);
    // `SKILL.md` and `skill.md` (or `Docs/` and `docs/`) are one file on a case-insensitive disk:
    // which one an agent reads would depend on the machine.
    for (let i = 1; i <= segments.length; i++) {
      const spelled = segments.slice(0, i).join('/');
      const twin = b.spellings.get(folded(spelled));
      if (twin !== undefined && twin !== spelled) {
        throw fail('refused', 'upload.case-twin', { path: spelled, other: twin });
      }
    }
    for (let i = 1; i <= segments.length; i++) {
      const spelled = segments.slice(0, i).join('/');
      b.spellings.set(folded(spelled), spelled);
    }
    const shownPath = segments.join('/');
    if (b.files + 1 > this.limits.maxFiles) throw fail('refused', 'upload.too-many-files', { max: this.limits.maxFiles });
    const tooLarge = () => fail('refused', 'upload.file-too-large', { path: shownPath, limit: sizeLimit(this.limits.maxFileBytes) });
    if (declaredLength !== undefined && declaredLength > this.limits.maxFileBytes) throw tooLarge();
    // Said without SkillDock's own paths: the client only needs its own name and the reason.
    const failed = (err: unknown) =>
      fail('refused', 'upload.failed', { path: shownPath, errno: (err as NodeJS.ErrnoException).code ?? 'error' });
    const target = path.join(b.dir, ...segments);
    const parent = path.dirname(target);
    let realParent: string;
    let realBatch: string;
    try {
      makeDirsInside(b.dir, segments.slice(0, -1));
      // Every dir under the batch was made by us; a link here would mean someone else is writing.
      realParent = fs.realpathSync(parent);
      realBatch = fs.realpathSync(b.dir);
    } catch (err) {
      if (err instanceof SkillDockError) throw err;
      throw failed(err);
    }
    if (!isInside(realParent, realBatch)) {
      throw fail('refused', 'upload.escapes', { path: shownPath });
    }
    b.files += 1;
    let bytes = 0;
    const limits = this.limits;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        // Counted while streaming, so parallel uploads of one batch share the cap.
        b.bytes += chunk.length;
        if (bytes > limits.maxFileBytes) return cb(tooLarge());
        if (b.bytes > limits.maxBatchBytes)
          return cb(fail('refused', 'upload.batch-too-large', { limit: sizeLimit(limits.maxBatchBytes) }));
        cb(null, chunk);
      },
    });
    let handle: fs.promises.FileHandle;
    try {
      // 'wx' refuses to overwrite and refuses to follow a link planted at the target.
      handle = await fs.promises.open(target, 'wx');
    } catch (err) {
      b.files -= 1;
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw fail('conflict', 'upload.already', { path: shownPath });
      throw failed(err);
    }
    try {
      await pipeline(body, counter, handle.createWriteStream());
    } catch (err) {
      b.files -= 1;
      b.bytes -= bytes;
      await handle.close().catch(() => {});
      fs.rmSync(target, { force: true }); // ours: created above with 'wx'
      throw err;
    }
    b.tops.add(segments[0]);
    return { path: segments.join('/'), bytes };
  }

  /** The absolute staged top-level entries, ready for `importPaths`. */
  finish(batch: unknown): { paths: string[]; files: number; bytes: number } {
    const b = this.get(batch);
    return { paths: [...b.tops].sort().map((t) => path.join(b.dir, t)), files: b.files, bytes: b.bytes };
  }
}
