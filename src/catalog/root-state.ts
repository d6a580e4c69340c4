import fs from 'node:fs';
import path from 'node:path';
import type { CatalogEntry, Diagnostic, Root } from '../contract/index.js';
import type { Registry } from '../agents/registry.js';
import { toEntry, type AnalyzeFn } from './entries.js';
import { listRoot, mapLimit, nestedDiagnostic, probeChild, resolveChild, type Child, type ChildState, type RootListing } from './scan.js';
import { signatureChanged, signatureOf, type Signature } from './signature.js';

// What the catalog remembers about one root folder: one record per direct child, each with the
// stat signature that lets a rescan skip it when nothing under it changed.

export interface ChildRecord {
  state: ChildState;
  entry?: CatalogEntry;
  /** Skills: the files the analysis saw. */
  signature?: Signature;
  /** Folders that are not skills: what the probe saw. */
  probeSig?: string;
  /** Root-level findings about this child (dangling link, loop, nested skills). */
  diagnostics: Diagnostic[];
}

export interface RootEnv {
  resourcesDir: string;
  analyze: AnalyzeFn;
  concurrency: number;
  /** Fills each root-level diagnostic's `agents` from the rule table. */
  registry: Registry;
  /** Analysis on worker threads for batches big enough to pay for them; null = do it here. */
  bulk?: (...args: Parameters<AnalyzeFn>) => ReturnType<AnalyzeFn> | null;
}

/** Batches at least this big go to the worker pool. */
const BULK_MIN = 200;

/** The analyser for a batch of `n` skills: the pool for big ones, falling back to this thread. */
export function analyzerFor(env: RootEnv, n: number): AnalyzeFn {
  const { bulk, analyze } = env;
  if (!bulk || n < BULK_MIN) return analyze;
  return (dir, opts) => bulk(dir, opts)?.catch(() => analyze(dir, opts)) ?? analyze(dir, opts);
}

export class RootState {
  listing: RootListing = { exists: false, mtimeMs: 0, names: [], kinds: new Map() };
  real: string;
  readonly children = new Map<string, ChildRecord>();

  constructor(public root: Root) {
    this.real = root.path;
  }

  /** Entries in name order. */
  entries(): CatalogEntry[] {
    const out: CatalogEntry[] = [];
    for (const name of this.listing.names) {
      const e = this.children.get(name)?.entry;
      if (e) out.push(e);
    }
    return out;
  }

  diagnostics(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const name of this.listing.names) out.push(...(this.children.get(name)?.diagnostics ?? []));
    return out;
  }

  async scan(env: RootEnv): Promise<void> {
    this.listing = await listRoot(this.root.path);
    this.real = this.listing.exists ? await fs.promises.realpath(this.root.path).catch(() => this.root.path) : this.root.path;
    this.children.clear();
    const batch = { ...env, analyze: analyzerFor(env, this.listing.names.length) };
    const records = await mapLimit(this.listing.names, env.concurrency, (name) => this.evaluate(name, batch, true));
    this.listing.names.forEach((name, i) => {
      const r = records[i];
      if (r) this.children.set(name, r);
    });
    this.listing.names = this.listing.names.filter((n) => this.children.has(n));
  }

  /**
   * Read one child afresh (null when it is gone or is a plain file). `trustListing`: the entry type
   * from the listing just taken is still right (a cold scan); a rescan asks the disk again.
   */
  async evaluate(name: string, env: RootEnv, trustListing = false): Promise<ChildRecord | null> {
    const kind = trustListing ? this.listing.kinds.get(name) : undefined;
    const resolved = await resolveChild(this.root.path, this.real, name, kind);
    if (!resolved) return null;
    if (resolved.kind === 'broken') return { state: resolved, diagnostics: [resolved.diagnostic] };
    const { child } = resolved;
    const probe = await probeChild(child);
    if (probe.kind !== 'skill') {
      const state: ChildState = probe.kind === 'nested' ? { kind: 'nested', child, nested: probe.nested } : { kind: 'none', child };
      const diagnostics = probe.kind === 'nested' ? probe.nested.map((d) => nestedDiagnostic(d, env.registry)) : [];
      return { state, diagnostics, probeSig: probe.sig };
    }
    // Analysed through the path as found, so findings point where the user sees the skill.
    const analysis = await env.analyze(child.dir, {
      resourcesDir: env.resourcesDir,
      dirName: child.dirName,
      digest: true,
      ...(probe.listing ? { listing: probe.listing } : {}),
    });
    return { state: { kind: 'skill', child }, diagnostics: [], entry: toEntry(this.root, child, analysis), signature: signatureOf(analysis.files) };
  }

  /**
   * Re-read what changed. `force` names children known to have changed (re-read without a
   * signature check); `full` also checks every other child's signature and re-lists the root.
   * Returns the names whose record changed, plus the old and new records.
   */
  async update(env: RootEnv, opts: { force?: Set<string>; full?: boolean; relist?: boolean }): Promise<Map<string, { before?: ChildRecord; after?: ChildRecord }>> {
    const changes = new Map<string, { before?: ChildRecord; after?: ChildRecord }>();
    const todo = new Set<string>(opts.force ?? []);
    let relisted: RootListing | null = null;
    if (opts.full || opts.relist) {
      const st = await fs.promises.stat(this.root.path).catch(() => null);
      const exists = Boolean(st?.isDirectory());
      if (opts.relist || exists !== this.listing.exists || (st && st.mtimeMs !== this.listing.mtimeMs)) {
        relisted = await listRoot(this.root.path);
        if (relisted.exists && !this.listing.exists) this.real = await fs.promises.realpath(this.root.path).catch(() => this.root.path);
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
    const batch = { ...env, analyze: analyzerFor(env, list.length) };
    const fresh = await mapLimit(list, env.concurrency, (n) => this.evaluate(n, batch));
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
    const probe = await probeChild(s.child);
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

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sameRecord(a?: ChildRecord, b?: ChildRecord): boolean {
  if (!a || !b) return a === b;
  if (a.state.kind !== b.state.kind) return false;
  return JSON.stringify([a.entry, a.diagnostics]) === JSON.stringify([b.entry, b.diagnostics]);
}
