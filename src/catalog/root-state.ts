import fs from 'node:fs';
import type { Diagnostic, Root } from '../contract/index.js';
import { listRoot, mapLimit, probeChild, type Child, type EntryKind, type RootListing } from './scan.js';
import { signatureChanged } from './signature.js';
import { resolutionMs } from './stat-rows.js';
import { runChild, type ChildJob, type ChildRecord, type TaskEnv } from './child-tasks.js';
import type { ScanPool } from './analyze-pool.js';
import type { ReadAhead, ReadChild } from './read-ahead.js';
import { entryName, nowNs, recordChecker, storable, type CatalogIndex } from './persist.js';
import { realpathAsync, statAsync } from './fs-async.js';

// What the catalog remembers about one root folder: one record per direct child, each with the
// stat signature that lets a rescan skip it when nothing under it changed.

export type { ChildRecord } from './child-tasks.js';

export interface RootEnv extends TaskEnv {
  concurrency: number;
  /** Worker threads for roots big enough to pay for them; absent = everything on this thread. */
  pool?: ScanPool;
  /** A reading thread for the first scan of a big root, where no workers run (read-ahead.ts). */
  reader?: ReadAhead;
}

/** Children re-read at start above which the index is rewritten (see `scan`). */
const REWRITE_MIN = 32;
/** Up to this many children, anything re-read is written back to the index at once. */
const SMALL_INDEX = 256;

/** Roots with at least this many children to read are shared with the worker threads. */
export const BULK_MIN = 200;

/**
 * Run `job` for each name: on this thread for a few, shared with the pool's workers for many.
 * Results in the order of `names`.
 */
export async function mapChildren<R>(env: RootEnv, job: ChildJob, names: string[], kinds: Array<EntryKind | undefined>): Promise<R[]> {
  const local = (i: number, pre?: ReadChild) => runChild(job, names[i], kinds[i], env, pre) as Promise<R>;
  if (env.pool && names.length >= BULK_MIN) return env.pool.map(job, env.resourcesDir, names, kinds, local);
  if (env.reader && names.length >= BULK_MIN && job.trustListing) {
    const rootPath = job.task === 'catalog' ? job.root.path : job.rootPath;
    return env.reader.map({ task: job.task, rootPath, names, kinds, resolutionMs: job.resolutionMs ?? resolutionMs() }, local);
  }
  return mapLimit(names, env.concurrency, (_n, i) => local(i));
}

export class RootState {
  listing: RootListing = { exists: false, mtimeMs: 0, names: [], kinds: new Map() };
  real: string;
  readonly children = new Map<string, ChildRecord>();

  constructor(public root: Root) {
    this.real = root.path;
  }

  /** The records of the skills, in name order (an index's record parses its entry only when asked). */
  skills(): ChildRecord[] {
    const out: ChildRecord[] = [];
    for (const name of this.listing.names) {
      const r = this.children.get(name);
      if (r && entryName(r) !== undefined) out.push(r);
    }
    return out;
  }

  diagnostics(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const name of this.listing.names) {
      const d = this.children.get(name)?.diagnostics;
      if (d?.length) out.push(...d); // most children have none: no spread call for them
    }
    return out;
  }

  /**
   * Read the root. With an index: children whose stat rows still match are taken from it, the
   * rest are read; the index is rewritten when anything was read. Returns how many were read.
   */
  async scan(env: RootEnv, index?: CatalogIndex): Promise<number> {
    const stampNs = nowNs();
    this.listing = await listRoot(this.root.path);
    this.real = this.listing.exists ? await realpathAsync(this.root.path).catch(() => this.root.path) : this.root.path;
    this.children.clear();
    const { names, kinds } = this.listing;
    const loaded = index && this.listing.exists ? index.load(this.root, this.real, env.registry) : null;
    const todo: string[] = [];
    const valid = loaded ? recordChecker(loaded.stampNs) : null;
    for (const name of names) {
      const r = loaded?.records.get(name);
      if (r && valid!(r)) this.children.set(name, r);
      else todo.push(name);
    }
    const records = await mapChildren<ChildRecord | null>(
      env,
      this.job(true),
      todo,
      todo.map((n) => kinds.get(n)),
    );
    todo.forEach((name, i) => {
      const r = records[i];
      if (r) this.children.set(name, r);
    });
    this.listing.names = names.filter((n) => this.children.has(n));
    this.stampNs = stampNs;
    // A few re-read children are cheaper to read again next start than a rewrite of the whole
    // index: rewrite when there is none, or when enough changed (or children came or went). A small
    // index is rewritten whenever anything was read: its rewrite costs about a millisecond, while a
    // child left stale (or racy under the old stamp: it stays racy until the index is rewritten) is
    // read again at every start, and reading one loads the skill analyser (~25 ms of a CLI start).
    const many = todo.length > (this.children.size <= SMALL_INDEX ? 0 : Math.max(REWRITE_MIN, this.children.size / 100));
    if (index && this.listing.exists && (!loaded || many || loaded.records.size !== storableCount(this.children))) {
      index.save(this.root, this.real, env.registry, stampNs, this.children);
    }
    return todo.length;
  }

  /** When the records were last taken from disk (the index's racy reference). */
  stampNs = 0n;

  /** Write this root's records to the index (after a refresh re-read some of them). */
  persist(env: RootEnv, index: CatalogIndex): void {
    if (!this.listing.exists) return;
    index.save(this.root, this.real, env.registry, this.stampNs, this.children);
  }

  private job(trustListing: boolean): ChildJob {
    return { task: 'catalog', root: this.root, rootReal: this.real, trustListing, resolutionMs: resolutionMs() };
  }

  /**
   * Re-read what changed. `force` names children known to have changed (re-read without a
   * signature check); `full` also checks every other child's signature and re-lists the root.
   * Returns the names whose record changed, plus the old and new records.
   */
  async update(
    env: RootEnv,
    opts: { force?: Set<string>; full?: boolean; relist?: boolean },
  ): Promise<Map<string, { before?: ChildRecord; after?: ChildRecord }>> {
    const changes = new Map<string, { before?: ChildRecord; after?: ChildRecord }>();
    const todo = new Set<string>(opts.force ?? []);
    let relisted: RootListing | null = null;
    if (opts.full || opts.relist) {
      const st = await statAsync(this.root.path).catch(() => null);
      const exists = Boolean(st?.isDirectory());
      if (opts.relist || exists !== this.listing.exists || (st && st.mtimeMs !== this.listing.mtimeMs)) {
        relisted = await listRoot(this.root.path);
        if (relisted.exists && !this.listing.exists) this.real = await realpathAsync(this.root.path).catch(() => this.root.path);
        const present = new Set(relisted.names);
        for (const n of relisted.names) if (!this.children.has(n)) todo.add(n);
        for (const n of this.listing.names) if (!present.has(n)) todo.add(n);
      }
    }
    if (opts.full) {
      const check = this.listing.names.filter((n) => !todo.has(n) && this.children.has(n));
      const stale = await mapLimit(check, env.concurrency, async (n) => ((await this.isStale(this.children.get(n))) ? n : null));
      for (const n of stale) if (n) todo.add(n);
    }
    const list = [...todo];
    const fresh = await mapChildren<ChildRecord | null>(
      env,
      this.job(false),
      list,
      list.map(() => undefined),
    );
    let membership = relisted !== null;
    list.forEach((n, i) => {
      const before = this.children.get(n);
      const after = fresh[i] ?? undefined;
      if (after) this.children.set(n, after);
      else this.children.delete(n);
      if (!before !== !after) membership = true;
      if (!sameRecord(before, after)) changes.set(n, { before, after });
    });
    if (relisted) this.listing = { ...relisted, names: this.listing.names };
    // Rebuilding the sorted name list costs a sort of every child: only when one came or went.
    if (membership) this.listing.names = [...this.children.keys()].sort(compare);
    return changes;
  }

  private async isStale(r: ChildRecord | undefined): Promise<boolean> {
    if (!r) return true;
    const s = r.state;
    if (s.kind === 'broken') return true; // rare and cheap: a fixed link must show up
    if (await linkChanged(s.child)) return true;
    if (r.signature) return signatureChanged(s.child.dir, r.signature);
    // From the persistent index: its stat rows say whether anything under it moved since.
    if (r.since !== undefined && r.rows) return !recordChecker(r.since)(r);
    const probe = probeChild(s.child);
    return probe.kind === 'skill' || probe.sig !== r.probeSig;
  }
}

/** A folder swapped for a link (or back), or a link pointed elsewhere under the same name. */
async function linkChanged(child: Child): Promise<boolean> {
  try {
    const lst = fs.lstatSync(child.dir);
    if (lst.isSymbolicLink() !== child.linked) return true;
    return child.linked ? fs.readlinkSync(child.dir) !== child.linkTarget : false;
  } catch {
    return true;
  }
}

/** How many records `CatalogIndex.save` keeps (broken links are always re-checked, never stored). */
function storableCount(children: Map<string, ChildRecord>): number {
  let n = 0;
  for (const r of children.values()) if (storable(r)) n++;
  return n;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameRecord(a?: ChildRecord, b?: ChildRecord): boolean {
  if (!a || !b) return a === b;
  if (a.state.kind !== b.state.kind) return false;
  return JSON.stringify([a.entry, a.diagnostics]) === JSON.stringify([b.entry, b.diagnostics]);
}
