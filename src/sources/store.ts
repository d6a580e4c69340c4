import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { SkillOriginSchema, type JournalChange, type SkillOrigin } from '../contract/index.js';
import type { Announce } from '../library/import.js';
import type { ServiceContext } from '../service-context.js';
import { copySkillTree, lstatOrNull, moveSkillTree, treeDigest } from '../library/tree.js';

// `<home>/sources/provenance.json`: library folder name → where it came from. The upstream files
// as installed are kept content-addressed in `<home>/sources/base/<digest>/` (the merge base of
// a later update). Written atomically (temp file + rename).

// `history` keeps each skill's earlier records (newest first), so after `undo` of an update the
// record whose installedDigest matches the library folder again is the one in force.
const FileSchema = z.object({
  version: z.literal(1),
  skills: z.record(z.string(), SkillOriginSchema),
  history: z.record(z.string(), z.array(SkillOriginSchema)).optional(),
});
const HISTORY = 10;

export function sourcesDir(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'sources');
}

export function provenanceFile(ctx: ServiceContext): string {
  return path.join(sourcesDir(ctx), 'provenance.json');
}

type Store = z.infer<typeof FileSchema>;

function readStore(ctx: ServiceContext): Store {
  try {
    const parsed = FileSchema.safeParse(JSON.parse(fs.readFileSync(provenanceFile(ctx), 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // missing or unreadable: no provenance yet
  }
  return { version: 1, skills: {} };
}

/**
 * Each skill's record in force: the newest whose installedDigest is the library folder's digest
 * now, or the one before a record whose update replaced exactly this folder (an undone update),
 * else the newest.
 */
export function readProvenance(ctx: ServiceContext, libDir?: string): Record<string, SkillOrigin> {
  const st = readStore(ctx);
  if (!libDir) return st.skills;
  const out: Record<string, SkillOrigin> = {};
  for (const [name, cur] of Object.entries(st.skills)) {
    const older = st.history?.[name] ?? [];
    let pick = cur;
    if (older.length) {
      const dir = path.join(libDir, name);
      const digest = lstatOrNull(dir) ? treeDigest(dir) : '';
      const recs = [cur, ...older];
      for (let i = 0; i < recs.length; i++) {
        if (recs[i]!.installedDigest === digest) {
          pick = recs[i]!;
          break;
        }
        const before = recs[i]!.replacedDigest === digest ? recs.find((r) => r.time === recs[i]!.replacedTime) : undefined;
        if (before) {
          pick = before;
          break;
        }
      }
    }
    out[name] = pick;
  }
  return out;
}

/** Set records (a changed record pushes the previous one into the history). */
export function writeProvenance(ctx: ServiceContext, changed: Record<string, SkillOrigin>): void {
  const st = readStore(ctx);
  const history = st.history ?? {};
  for (const [name, rec] of Object.entries(changed)) {
    const prev = st.skills[name];
    if (prev && prev.installedDigest !== rec.installedDigest) history[name] = [prev, ...(history[name] ?? [])].slice(0, HISTORY);
    st.skills[name] = rec;
  }
  fs.mkdirSync(sourcesDir(ctx), { recursive: true });
  const sort = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const tmp = `${provenanceFile(ctx)}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ version: 1, skills: sort(st.skills), history: sort(history) }, null, 2) + '\n');
  fs.renameSync(tmp, provenanceFile(ctx));
}

/**
 * The base of a skill whose installed upstream version is unknown (adopted from a lock file after
 * local edits): an empty folder, so every file both sides have is a conflict, never overwritten.
 */
export const NO_BASE = 'empty';

export function baseDir(ctx: ServiceContext, digest: string): string {
  return path.join(sourcesDir(ctx), 'base', digest);
}

/**
 * Keep a copy of upstream files under their digest (once; same digest = same files). Returns the
 * change when this call created the copy (announced to `wal` first), for the journal entry of the
 * operation that needed it: undo of that operation removes it again. A copy that was already there
 * belongs to an earlier operation and stays.
 */
export function storeBase(
  ctx: ServiceContext,
  src: string,
  digest: string,
  wal?: Announce,
  /** `src` is a scratch copy about to be removed: move it rather than copy it (issue 28). */
  move = false,
): JournalChange | null {
  const dest = baseDir(ctx, digest);
  if (lstatOrNull(dest)) return null;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  wal?.will({ kind: 'created', path: dest, digest });
  const tmp = `${dest}.${randomBytes(4).toString('hex')}.tmp`;
  if (move) moveSkillTree(src, tmp);
  else copySkillTree(src, tmp);
  fs.renameSync(tmp, dest);
  return { kind: 'created', path: dest, digest: treeDigest(dest) };
}
