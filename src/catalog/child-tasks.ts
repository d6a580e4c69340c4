import path from 'node:path';
import type { CatalogEntry, Diagnostic, LintReport, Root } from '../contract/index.js';
import type { Registry } from '../agents/registry.js';
import type { SkillAnalysis } from '../skills/index.js';
import { walkFromPlain, childPath, type Listed, type WalkResult } from '../skills/walk.js';
import type { ReadChild } from './read-ahead.js';
import { toEntry, type AnalyzeFn } from './entries.js';
import { nestedDiagnostic, probeChild, resolveChild, type Child, type ChildState, type EntryKind } from './scan.js';
import { signatureOf, type Signature } from './signature.js';
import { concatRows, resolutionMs, rowSink, statRows, type StatRows } from './stat-rows.js';

// The per-child work of a scan and of `lint <root>`, as plain functions of plain data: the calling
// thread runs them, and so do the scan workers (analyze-worker.ts) for their share of a big root.

/** What the catalog remembers about one direct child of a root. */
export interface ChildRecord {
  state: ChildState;
  entry?: CatalogEntry;
  /**
   * Skills: the entry as JSON text, exactly `JSON.stringify(entry)`, once something needed it (the
   * index keeps it; a listing printed as JSON copies it rather than serialising the entry again).
   */
  json?: string | Uint8Array;
  /** Skills: the files the analysis saw. */
  signature?: Signature;
  /** Folders that are not skills: what the probe saw. */
  probeSig?: string;
  /** Root-level findings about this child (dangling link, loop, nested skills). */
  diagnostics: Diagnostic[];
  /** Stat rows taken before the child was read, for the persistent index (stat-rows.ts). */
  rows?: StatRows;
  /**
   * Loaded from the persistent index (which keeps no signature): when the scan that took its rows
   * started. A rescan checks such a record by its rows.
   */
  since?: bigint;
}

/** What a child task needs besides the child's name: all of it can cross to a worker thread. */
export interface TaskEnv {
  resourcesDir: string;
  analyze: AnalyzeFn;
  /** Fills each root-level diagnostic's `agents` from the rule table. */
  registry: Registry;
}

/** One root's children, handed out by name; `rootReal` is the root's real path. */
export type ChildJob = ({ task: 'catalog'; root: Root } | { task: 'lint'; rootPath: string }) & {
  rootReal: string;
  /** The entry types from a listing just taken (a cold scan); a rescan asks the disk again. */
  trustListing: boolean;
  /**
   * The stat rows' timestamp resolution (stat-rows.ts), read from the environment once per job:
   * a read of `process.env` costs about as much as an lstat, twice per child otherwise.
   */
  resolutionMs?: number;
};

/**
 * Read one child afresh for the catalog (null when it is gone or is a plain file). A skill is
 * analysed through the path as found, so findings point where the user sees the skill.
 */
export async function evaluateChild(
  root: Root,
  rootReal: string,
  name: string,
  kind: EntryKind | undefined,
  env: TaskEnv,
  res = resolutionMs(),
): Promise<ChildRecord | null> {
  const resolved = resolveChild(root.path, rootReal, name, kind);
  if (!resolved) return null;
  if (resolved.kind === 'broken') return { state: resolved, diagnostics: [resolved.diagnostic] };
  const { child } = resolved;
  // Stats first, then contents: an edit made while reading never hides behind a matching row.
  // The folder's own rows now; a skill's files and folders as the analysis walks them.
  const rows = statRows(child.dir, 0, 0, res);
  const probe = probeChild(child);
  if (probe.kind !== 'skill') {
    const state: ChildState = probe.kind === 'nested' ? { kind: 'nested', child, nested: probe.nested } : { kind: 'none', child };
    const diagnostics = probe.kind === 'nested' ? probe.nested.map((d) => nestedDiagnostic(d, env.registry)) : [];
    // What the probe looked at: the folder and its entries (a SKILL.md added below moves a subfolder's mtime).
    const entries = rows && statRows(child.dir, 1, 1, res);
    return { state, diagnostics, probeSig: probe.sig, ...(rows && entries ? { rows: concatRows(rows, entries) } : {}) };
  }
  const analysis = await env.analyze(child.dir, {
    resourcesDir: env.resourcesDir,
    dirName: child.dirName,
    digest: true,
    ...(probe.listing ? { listing: probe.listing } : {}),
    ...(rows ? { onStat: rowSink(rows, res) } : {}),
  });
  return skillRecord(root, child, analysis, rows ?? undefined);
}

/** The record of a child that is a skill, from its analysis and the stat rows taken before it. */
function skillRecord(root: Root, child: Child, analysis: SkillAnalysis, rows: StatRows | undefined): ChildRecord {
  return {
    state: { kind: 'skill', child },
    diagnostics: [],
    entry: toEntry(root, child, analysis),
    signature: signatureOf(analysis.files),
    ...(rows ? { rows } : {}),
  };
}

/**
 * A plain folder holding a skill file, as the scan's reading thread read it (read-ahead.ts): the
 * record `evaluateChild` makes, from the same calls made there, in the same order.
 */
function readChild(root: Root, rootReal: string, name: string, pre: ReadChild, env: TaskEnv): Promise<ChildRecord> {
  const child: Child = { dirName: name, dir: childPath(root.path, name), realPath: childPath(rootReal, name), linked: false };
  const walked = walkFromPlain(pre.read.walk, pre.text); // now: the text buffer is valid during this call only
  return env
    .analyze(child.dir, { resourcesDir: env.resourcesDir, dirName: name, digest: true, walked })
    .then((analysis) => skillRecord(root, child, analysis, { rels: pre.read.rels, nums: pre.nums, at: pre.read.at }));
}

export type LintSkillReport = LintReport['skills'][number];

/** What `lint <root>` finds in one child; `skillLike` says whether the child looks like a skill at all. */
export interface LintChildResult {
  reports: LintSkillReport[];
  skillLike: boolean;
}

/** `walked`: the folder as the scan's reading thread read it (nothing is read here then). */
export async function analyzeForLint(
  env: TaskEnv,
  dir: string,
  dirName: string,
  listing?: Listed[],
  walked?: WalkResult,
): Promise<SkillAnalysis> {
  return env.analyze(dir, {
    resourcesDir: env.resourcesDir,
    dirName,
    digest: false,
    ...(listing ? { listing } : {}),
    ...(walked ? { walked } : {}),
  });
}

export function lintReport(a: SkillAnalysis, dir: string, extra: Diagnostic[] = []): LintSkillReport {
  return { name: typeof a.name === 'string' ? a.name : null, dir, diagnostics: [...a.diagnostics, ...extra] };
}

export async function lintChild(
  rootPath: string,
  rootReal: string,
  name: string,
  kind: EntryKind | undefined,
  env: TaskEnv,
): Promise<LintChildResult> {
  const resolved = resolveChild(rootPath, rootReal, name, kind);
  if (!resolved) return { reports: [], skillLike: false };
  if (resolved.kind === 'broken')
    return { reports: [{ name: null, dir: resolved.dir, diagnostics: [resolved.diagnostic] }], skillLike: true };
  const { child } = resolved;
  const probe = probeChild(child);
  if (probe.kind === 'skill')
    return { reports: [lintReport(await analyzeForLint(env, child.dir, child.dirName, probe.listing), child.dir)], skillLike: true };
  if (probe.kind === 'nested') {
    const nested = await Promise.all(
      probe.nested.map(async (dir) =>
        lintReport(await analyzeForLint(env, dir, path.basename(dir)), dir, [nestedDiagnostic(dir, env.registry)]),
      ),
    );
    return { reports: nested, skillLike: true };
  }
  // A folder in a root without SKILL.md: worth a `skill-file-missing`, unless hidden (.git...).
  if (child.dirName.startsWith('.')) return { reports: [], skillLike: false };
  return { reports: [lintReport(await analyzeForLint(env, child.dir, child.dirName), child.dir)], skillLike: false };
}

/**
 * Run one child of a job: the same function on whichever thread claims it. `pre`: a plain folder
 * holding a skill file, as the scan's reading thread read it.
 */
export function runChild(
  job: ChildJob,
  name: string,
  kind: EntryKind | undefined,
  env: TaskEnv,
  pre?: ReadChild,
): Promise<ChildRecord | LintChildResult | null> {
  if (pre && job.task === 'catalog') return readChild(job.root, job.rootReal, name, pre, env);
  if (pre && job.task === 'lint') {
    const dir = childPath(job.rootPath, name);
    return analyzeForLint(env, dir, name, undefined, walkFromPlain(pre.read.walk, pre.text)).then((a) => ({
      reports: [lintReport(a, dir)],
      skillLike: true,
    }));
  }
  const k = job.trustListing ? kind : undefined;
  return job.task === 'catalog'
    ? evaluateChild(job.root, job.rootReal, name, k, env, job.resolutionMs)
    : lintChild(job.rootPath, job.rootReal, name, k, env);
}
