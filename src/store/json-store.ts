import fs from 'node:fs';
import path from 'node:path';
import type { ZodType } from 'zod';
import type { SkillDockEvent } from '../contract/index.js';
import { fail } from '../errors.js';
import { FileLock, pidAlive } from './file-lock.js';
import { randomHex } from './lazy-crypto.js';
import { SchemaNotLoaded, schemaNamed, validated } from './lazy-schema.js';

// A JSON file with a schema version, validated on every read, written atomically and updated under
// a cross-process lock. On disk: `{ "version": N, "data": ... }`. A file without that envelope (the
// interim plain-JSON files) counts as version 0 whose data is the whole object.

export interface CorruptInfo {
  file: string;
  movedTo: string;
  reason: string;
  /** What was wrong, as a code the window words in the user's language. */
  reasonCode: CorruptReason;
  recoveredFrom: 'backup' | 'defaults';
}

export type CorruptReason = 'directory' | 'json' | 'version' | 'migration' | 'schema';

export interface JsonStoreOptions<T> {
  file: string;
  /**
   * The data's schema, or the name of a provided one (src/store/lazy-schema.ts): then a process
   * without zod (the CLI's lean commands) reads what an earlier validation of the same bytes gave.
   */
  schema: ZodType<T> | string;
  /** Current schema version (>= 1). */
  version: number;
  /** `migrations[n]` turns data of version n into version n + 1. A missing step passes data through. */
  migrations?: Record<number, (old: unknown) => unknown>;
  defaults: () => T;
  onCorrupt?: (info: CorruptInfo) => void;
  /** Where the `store-corrupt` event goes (normally `ctx.events`). */
  events?: { emit(event: SkillDockEvent): void };
  /** How long `update` waits for another process's lock before failing. */
  lockTimeoutMs?: number;
  /** A lock older than this is stale even if its pid looks alive (pid reuse, other host). */
  staleLockMs?: number;
  /**
   * What `.bak` holds: the version before the last save (default), or `written`: the last version
   * saved, read back and validated after each save, so a damaged file loses nothing (approvals).
   */
  backup?: 'previous' | 'written';
}

type ReadOutcome<T> =
  { kind: 'missing' } | { kind: 'ok'; value: T; raw: string } | { kind: 'bad'; reason: string; code: CorruptReason; raw: string };

function fsyncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // some platforms/filesystems cannot fsync a directory; the rename is still atomic
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Write `text` to `file` atomically: temp file in the same dir, fsync, rename, fsync the dir. */
export function writeFileAtomic(file: string, text: string): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${randomHex(4)}`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fsyncDir(dir);
}

const MISSING = 'missing';

/** Identity and times of a file, `missing` when there is none, null when it cannot be stat'ed. */
function fileKey(file: string): string | null {
  try {
    const st = fs.statSync(file, { bigint: true, throwIfNoEntry: false });
    if (!st) return MISSING;
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return null; // unreadable folder and the like: read it the slow way, which reports why
  }
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

export class JsonStore<T> {
  readonly file: string;
  readonly backupFile: string;
  readonly lockFile: string;
  private holdsLock = false;
  private readonly lock: FileLock;

  constructor(private readonly opts: JsonStoreOptions<T>) {
    if (!Number.isInteger(opts.version) || opts.version < 1) throw new Error('JsonStore version must be an integer >= 1');
    this.file = path.resolve(opts.file);
    this.backupFile = `${this.file}.bak`;
    this.lockFile = `${this.file}.lock`;
    this.lock = new FileLock(this.lockFile, { timeoutMs: opts.lockTimeoutMs, staleMs: opts.staleLockMs });
  }

  /** The last good read, keyed on the file's identity and times (see `fileKey`). */
  private memo: { key: string; value: T } | null = null;

  /** The current value: validated and migrated; a corrupt file is moved aside and the backup used. */
  read(): T {
    // Unchanged since the last read (same inode, size, mtime and ctime: every save renames a new
    // file into place, and an edit in place moves ctime): no read, parse or validation. A copy, so
    // a caller changing what it got never changes what the next caller gets.
    const key = fileKey(this.file);
    if (key !== null && this.memo?.key === key) return structuredClone(this.memo.value);
    const first = this.load(this.file);
    if (first.kind === 'ok') {
      if (key !== null) this.memo = { key, value: structuredClone(first.value) };
      return first.value;
    }
    if (first.kind === 'missing') {
      const value = this.opts.defaults();
      if (key === MISSING) this.memo = { key, value: structuredClone(value) };
      return value;
    }
    // Recovery renames files, so it runs under the lock and re-checks what it saw.
    return this.withLock(() => this.readLocked());
  }

  /**
   * Apply `fn` to the freshest value under the lock and save the result atomically. `fn` may return
   * a new value or mutate its argument and return nothing. Returns the saved value.
   */
  update(fn: (current: T) => T | void): T {
    return this.withLock(() => {
      const current = this.readLocked();
      const returned = fn(current);
      const next = this.schema().parse(returned === undefined ? current : returned);
      const written = this.opts.backup === 'written';
      if (!written) this.keepBackup();
      writeFileAtomic(this.file, JSON.stringify({ version: this.opts.version, data: next }, null, 2) + '\n');
      if (written) this.keepWritten();
      return next;
    });
  }

  // --- reading ---------------------------------------------------------------------------------

  private schema(): ZodType<T> {
    const s = this.opts.schema;
    if (typeof s !== 'string') return s;
    const named = schemaNamed<T>(s);
    if (!named) throw new SchemaNotLoaded(s);
    return named;
  }

  private load(file: string): ReadOutcome<T> {
    let raw: string;
    try {
      raw = fs.readFileSync(file, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { kind: 'missing' };
      if (code === 'EISDIR') return { kind: 'bad', reason: 'is a directory', code: 'directory', raw: '' };
      throw fail('io', 'store.read-failed', { file, errno: code ?? 'error' }, { reason: (err as Error).message });
    }
    const named = this.opts.schema;
    if (typeof named !== 'string') return this.decode(file, raw);
    return validated(
      `store-${path.basename(file)}`,
      raw,
      [named],
      () => this.decode(file, raw),
      (o) => o.kind === 'ok',
    );
  }

  /** What `raw` (the text of `file`) holds: parsed, migrated and validated. */
  private decode(file: string, raw: string): ReadOutcome<T> {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      return { kind: 'bad', reason: `not valid JSON (${(err as Error).message})`, code: 'json', raw };
    }
    let version = 0;
    let data: unknown = json;
    if (json && typeof json === 'object' && !Array.isArray(json) && 'version' in json && 'data' in json) {
      const v = (json as { version: unknown }).version;
      if (!Number.isInteger(v) || (v as number) < 0)
        return { kind: 'bad', reason: `bad schema version ${String(v)}`, code: 'version', raw };
      version = v as number;
      data = (json as { data: unknown }).data;
    }
    if (version > this.opts.version) {
      // Written by a newer SkillDock: never move it aside or overwrite it.
      throw fail('unsupported', 'store.newer-version', { file, version, supported: this.opts.version });
    }
    try {
      for (let v = version; v < this.opts.version; v++) {
        const step = this.opts.migrations?.[v];
        if (step) data = step(data);
      }
    } catch (err) {
      return { kind: 'bad', reason: `migration from version ${version} failed (${(err as Error).message})`, code: 'migration', raw };
    }
    const parsed = this.schema().safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path?.length ? ` at ${issue.path.join('.')}` : '';
      return { kind: 'bad', reason: `does not match its schema${where}: ${issue?.message ?? 'invalid'}`, code: 'schema', raw };
    }
    return { kind: 'ok', value: parsed.data, raw };
  }

  /** Read under the lock; a bad file is moved aside and replaced by the backup (or defaults). */
  private readLocked(): T {
    const main = this.load(this.file);
    if (main.kind === 'ok') return main.value;
    if (main.kind === 'missing') return this.opts.defaults();
    const movedTo = `${this.file}.corrupt-${stamp()}`;
    fs.renameSync(this.file, movedTo);
    const bak = this.load(this.backupFile);
    let value: T;
    let recoveredFrom: CorruptInfo['recoveredFrom'];
    if (bak.kind === 'ok') {
      value = bak.value;
      recoveredFrom = 'backup';
      // Put the good copy back so every later read (and other processes) sees the same thing.
      writeFileAtomic(this.file, bak.raw);
    } else {
      value = this.opts.defaults();
      recoveredFrom = 'defaults';
    }
    const info: CorruptInfo = { file: this.file, movedTo, reason: main.reason, reasonCode: main.code, recoveredFrom };
    try {
      this.opts.onCorrupt?.(info);
    } catch {
      // telling the user must not break reading
    }
    this.opts.events?.emit({ type: 'store-corrupt', ...info });
    return value;
  }

  /**
   * Keep what was just written as `.bak`, once read back and validated: a copy with its own inode
   * (never a hard link, which an edit in place of the main file would damage too).
   */
  private keepWritten(): void {
    const now = this.load(this.file);
    if (now.kind === 'ok') writeFileAtomic(this.backupFile, now.raw);
  }

  /** Keep the current good file as `.bak` before it is replaced (a hard link: the rename leaves it intact). */
  private keepBackup(): void {
    if (this.load(this.file).kind !== 'ok') return;
    const tmp = `${this.backupFile}.tmp-${process.pid}-${randomHex(4)}`;
    try {
      fs.linkSync(this.file, tmp);
    } catch {
      fs.copyFileSync(this.file, tmp);
    }
    fs.renameSync(tmp, this.backupFile);
    // rename(2) does nothing when both names are links to one file (the backup already is this
    // version, after a writer died between backup and save): drop the temp name then.
    fs.rmSync(tmp, { force: true });
  }

  // --- locking ---------------------------------------------------------------------------------

  private withLock<R>(fn: () => R): R {
    if (this.holdsLock) return fn(); // re-entrant within this process (read() recovery inside update)
    return this.lock.run(() => {
      this.holdsLock = true;
      try {
        this.sweepTempFiles();
        return fn();
      } finally {
        this.holdsLock = false;
      }
    });
  }

  /** Remove temp files left by writers that were killed mid-save (their pid is gone). */
  private sweepTempFiles(): void {
    const dir = path.dirname(this.file);
    const base = path.basename(this.file);
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return;
    }
    const re = /\.tmp-(\d+)-[0-9a-f]+$/;
    for (const name of names) {
      if (!name.startsWith(`${base}.`)) continue;
      const m = re.exec(name);
      if (!m || (!name.startsWith(`${base}.tmp-`) && !name.startsWith(`${base}.bak.tmp-`))) continue;
      const pid = Number(m[1]);
      if (pid !== process.pid && !pidAlive(pid)) fs.rmSync(path.join(dir, name), { force: true });
    }
  }
}
