import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ServiceContext } from '../service-context.js';
import { writeFileAtomic } from '../store/index.js';
import type { Desired } from './targets.js';

// `<home>/deployments.json`: per scope (`user`, `project:<dir>`), what the user asked for
// (desired) and what SkillDock placed (placed, by path: mode, the link's target, a copy's digest and
// quick signature). Written only inside an apply, announced to the write-ahead log first, so a crash
// or an undo puts back the record with the entries.

const PlacedSchema = z.object({
  skill: z.string(),
  folder: z.string(),
  mode: z.enum(['link', 'copy']),
  linkTarget: z.string().optional(),
  digest: z.string().optional(),
  /** A copy's quick signature (folder and SKILL.md times and size): unchanged means not edited. */
  sig: z.string().optional(),
});
export type Placed = z.infer<typeof PlacedSchema>;

const ScopeRecordSchema = z.object({
  desired: z.record(z.string(), z.record(z.string(), z.enum(['link', 'copy']))).default({}),
  placed: z.record(z.string(), PlacedSchema).default({}),
});
export type ScopeRecord = z.infer<typeof ScopeRecordSchema>;

// version defaults: an undo that takes every key back out of a record made by the operation leaves none
const RecordSchema = z.object({ version: z.literal(1).default(1), scopes: z.record(z.string(), ScopeRecordSchema).default({}) });
export type DeployRecord = z.infer<typeof RecordSchema>;

export function recordFile(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'deployments.json');
}

/** The record's text as it is on disk (null: none yet), for the write-ahead log and undo. */
export function readRecordText(ctx: ServiceContext): string | null {
  try {
    return fs.readFileSync(recordFile(ctx), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Parse the record; a damaged one is kept aside and read as empty (placed entries then show as foreign, never lost). */
export function parseRecord(ctx: ServiceContext, text: string | null): DeployRecord {
  if (text === null) return { version: 1, scopes: {} };
  try {
    return RecordSchema.parse(JSON.parse(text));
  } catch {
    const keptAt = `${recordFile(ctx)}.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    fs.copyFileSync(recordFile(ctx), keptAt);
    ctx.events.emit({
      type: 'store-corrupt',
      file: recordFile(ctx),
      movedTo: keptAt,
      reason: 'the file is not valid',
      reasonCode: 'json',
      recoveredFrom: 'defaults',
    });
    return { version: 1, scopes: {} };
  }
}

/**
 * The record, parsed once per version of the file (status runs on every change the watcher sees;
 * validating 3,000 entries each time would cost more than reading every agent folder). Shared:
 * callers must not change it (an apply reads its own with parseRecord).
 */
export function readRecord(ctx: ServiceContext): DeployRecord {
  let key = 'none';
  try {
    const st = fs.statSync(recordFile(ctx), { bigint: true });
    key = `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    // no record yet
  }
  const cache = ctx.use('deploy:record-cache', () => ({ key: '', record: null as DeployRecord | null }));
  if (cache.key !== key || !cache.record) {
    cache.record = parseRecord(ctx, readRecordText(ctx));
    cache.key = key;
  }
  return cache.record;
}

export function scopeRecord(record: DeployRecord, key: string): ScopeRecord {
  return (record.scopes[key] ??= { desired: {}, placed: {} });
}

export function writeRecord(ctx: ServiceContext, record: DeployRecord): void {
  writeFileAtomic(recordFile(ctx), JSON.stringify(record, null, 1) + '\n');
}

/** Desired with a change applied: skills on (mode) or off (null) for agents. */
export function withChange(desired: Desired, skills: string[], agents: string[], mode: 'link' | 'copy' | null): Desired {
  const out: Desired = structuredClone(desired);
  for (const s of skills) {
    const row = (out[s] ??= {});
    for (const a of agents) {
      if (mode) row[a] = mode;
      else delete row[a];
    }
    if (Object.keys(row).length === 0) delete out[s];
  }
  return out;
}
