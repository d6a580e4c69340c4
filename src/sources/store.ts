import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { SkillOriginSchema, type SkillOrigin } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { copySkillTree, lstatOrNull } from '../library/tree.js';

// `<home>/sources/provenance.json`: library folder name → where it came from. The upstream files
// as installed are kept content-addressed in `<home>/sources/base/<digest>/` (the merge base of
// a later update). Written atomically (temp file + rename).

const FileSchema = z.object({ version: z.literal(1), skills: z.record(z.string(), SkillOriginSchema) });

export function sourcesDir(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'sources');
}

function file(ctx: ServiceContext): string {
  return path.join(sourcesDir(ctx), 'provenance.json');
}

export function readProvenance(ctx: ServiceContext): Record<string, SkillOrigin> {
  let raw: string;
  try {
    raw = fs.readFileSync(file(ctx), 'utf8');
  } catch {
    return {};
  }
  const parsed = FileSchema.safeParse(JSON.parse(raw));
  return parsed.success ? parsed.data.skills : {};
}

export function writeProvenance(ctx: ServiceContext, skills: Record<string, SkillOrigin>): void {
  fs.mkdirSync(sourcesDir(ctx), { recursive: true });
  const sorted = Object.fromEntries(Object.entries(skills).sort(([a], [b]) => a.localeCompare(b)));
  const tmp = `${file(ctx)}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ version: 1, skills: sorted }, null, 2) + '\n');
  fs.renameSync(tmp, file(ctx));
}

export function baseDir(ctx: ServiceContext, digest: string): string {
  return path.join(sourcesDir(ctx), 'base', digest);
}

/** Keep a copy of upstream files under their digest (once; same digest = same files). */
export function storeBase(ctx: ServiceContext, src: string, digest: string): void {
  const dest = baseDir(ctx, digest);
  if (lstatOrNull(dest)) return;
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = `${dest}.${randomBytes(4).toString('hex')}.tmp`;
  copySkillTree(src, tmp);
  fs.renameSync(tmp, dest);
}
