import { nodeCrypto, randomHex } from './lazy-crypto.js';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ZodType } from 'zod';

// Schemas by name, for code that must also run without zod loaded: the CLI's lean commands
// (`list --json`, `policy check-write --hook`) start in a fraction of the time it takes to load zod
// and build the contract. A module that defines a schema provides it here when it loads
// (src/schemas.ts loads them all; the service, the server, the app and the tests import it). A lean
// process never loads them: what it reads is served from a memo of earlier validations, keyed by
// the exact bytes read and the engine build, kept in SkillDock's home (`cache/validated/`). Where
// the memo has no answer, `SchemaNotLoaded` is thrown before anything was changed, and the lean
// command is run again through the full engine (which validates and refreshes the memo).

let misses = 0;

export class SchemaNotLoaded extends Error {
  constructor(readonly schema: string) {
    super(`schema "${schema}" is not loaded in this process`);
    this.name = 'SchemaNotLoaded';
    misses++;
  }
}

const provided = new Map<string, ZodType<unknown>>();

/**
 * How many reads this process could not answer without a schema. A lean command compares it before
 * and after its run: a miss that something caught on the way still means the answer is not whole.
 */
export function schemaMisses(): number {
  return misses;
}

export function provideSchema(name: string, schema: ZodType<unknown>): void {
  provided.set(name, schema);
}

/** The schema, or undefined in a process that never loaded it. */
export function schemaNamed<T>(name: string): ZodType<T> | undefined {
  return provided.get(name) as ZodType<T> | undefined;
}

let memoDir: string | null = null;

/** Keep (and consult) validations in `dir`; null turns the memo off (the default). */
export function useValidationMemo(dir: string | null): void {
  memoDir = dir;
  memos.clear();
}

const ENGINE_VERSION = '0.1.0';
/**
 * One id per run of scripts/build-engine.mjs, the same in every bundle it makes (the CLI, the hook's
 * own door, the app's main process), so they share their caches; undefined when running from source.
 */
declare const __SKILLDOCK_ENGINE_BUILD__: string | undefined;
let buildKey: string | null = null;
/**
 * The running engine's build: its version and the bundles' build id, or from source this file's
 * size and mtime (a rebuild changes them). Keys every cache of derived data (this memo, the
 * catalog index).
 */
export function engineBuild(): string {
  if (buildKey === null && typeof __SKILLDOCK_ENGINE_BUILD__ === 'string') buildKey = `${ENGINE_VERSION}|${__SKILLDOCK_ENGINE_BUILD__}`;
  if (buildKey === null) {
    let st = '';
    try {
      const s = fs.statSync(fileURLToPath(import.meta.url));
      st = `${s.size}:${s.mtimeMs}`;
    } catch {
      /* no file to stat: the version alone keys the memo */
    }
    buildKey = `${ENGINE_VERSION}|${st}`;
  }
  return buildKey;
}

interface MemoFile {
  build: string;
  entries: Array<{ sha: string; value: unknown }>;
}
/** A few entries per name: the hook reads one conversation's record again and again. */
const MEMO_ENTRIES = 8;
const memos = new Map<string, MemoFile | null>();

function memoFile(name: string): string {
  return path.join(memoDir!, `${name.replace(/[^a-z0-9-]/gi, '_')}.json`);
}

function readMemo(name: string): MemoFile | null {
  if (memos.has(name)) return memos.get(name)!;
  let memo: MemoFile | null = null;
  try {
    const parsed = JSON.parse(fs.readFileSync(memoFile(name), 'utf8')) as MemoFile;
    if (parsed && parsed.build === engineBuild() && Array.isArray(parsed.entries)) memo = parsed;
  } catch {
    /* none yet, or damaged: no answer from it */
  }
  memos.set(name, memo);
  return memo;
}

const sha = (text: string) => nodeCrypto().createHash('sha256').update(text).digest('hex');

/**
 * The result of `compute` for `raw` (the exact text read): computed with the schemas when this
 * process has them (and remembered when `keep` says the result is a good one), answered from the
 * memo otherwise; SchemaNotLoaded when neither can. The value is a fresh copy each time.
 */
export function validated<T>(name: string, raw: string, schemas: string[], compute: () => T, keep: (value: T) => boolean): T {
  if (schemas.every((s) => provided.has(s))) {
    const value = compute();
    if (memoDir !== null && keep(value)) remember(name, raw, structuredClone(value));
    return value;
  }
  if (memoDir !== null) {
    const h = sha(raw);
    const hit = readMemo(name)?.entries.find((e) => e.sha === h);
    if (hit) return structuredClone(hit.value) as T;
  }
  throw new SchemaNotLoaded(schemas.find((s) => !provided.has(s))!);
}

function remember(name: string, raw: string, value: unknown): void {
  const h = sha(raw);
  const old = readMemo(name);
  if (old?.entries[0]?.sha === h) return;
  const memo: MemoFile = {
    build: engineBuild(),
    entries: [{ sha: h, value }, ...(old?.entries ?? []).filter((e) => e.sha !== h)].slice(0, MEMO_ENTRIES),
  };
  memos.set(name, memo);
  const file = memoFile(name);
  const tmp = `${file}.${process.pid}.${randomHex(4)}.tmp`;
  try {
    fs.mkdirSync(memoDir!, { recursive: true });
    fs.writeFileSync(tmp, JSON.stringify(memo), { flag: 'wx', mode: 0o600 });
    fs.renameSync(tmp, file); // whole files only: a reader sees the old memo or the new one
  } catch {
    fs.rmSync(tmp, { force: true }); // a cache: failing to keep it only costs a later start zod
  }
}
