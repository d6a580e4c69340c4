import fs from 'node:fs';
import path from 'node:path';
import type { SkillCatalog, IndexedSkillWithBody } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { mapLimit } from '../catalog/scan.js';
import { analyzeCatalogSkill } from './analyze.js';
import { downloadEntry, fetchIndex, parseWellKnown } from '../sources/well-known-source.js';

// A web host's well-known skills index, in the format the reference `skills` CLI reads:
// `<site>/.well-known/agent-skills/index.json` (newer) or `<site>/.well-known/skills/index.json`,
// `{ "skills": [{ "name", "description", "files": ["SKILL.md", ...] }] }`, each file at
// `<site>/.well-known/<skills|agent-skills>/<name>/<file>`. Every file is downloaded into the
// catalog's own folder (`<home>/catalogs/<id>/files/<name>/`), linted and scanned there; install
// copies exactly those files. An entry with a hostile name or path is left out and counted.

export interface WellKnownResult {
  skills: IndexedSkillWithBody[];
  skipped: number;
  /** The index's folder URL (`<site>/.well-known/<agent-skills|skills>`): a skill's source is in it. */
  dir: string;
}

/** Download and index every accepted skill into `filesDir` (replaced as a whole when all went well). */
export async function refreshWellKnown(
  ctx: ServiceContext,
  c: SkillCatalog,
  filesDir: string,
  signal?: AbortSignal,
): Promise<WellKnownResult> {
  const { dir, text } = await fetchIndex(c.url, signal);
  const { entries, skipped } = parseWellKnown(c.url, text);
  const staging = `${filesDir}.new-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  fs.mkdirSync(staging, { recursive: true });
  try {
    let firstError: unknown;
    const got = await mapLimit(entries, 8, async (e) => {
      const skillDir = path.join(staging, e.name);
      try {
        await downloadEntry(dir, e, skillDir, signal);
      } catch (err) {
        // One entry whose files cannot be had (a 404, a file and a folder of one name) is left out.
        firstError ??= err;
        fs.rmSync(skillDir, { recursive: true, force: true });
        return null;
      }
      const s = await analyzeCatalogSkill(ctx, skillDir, { catalog: c.id, path: e.name });
      return s.description ? s : { ...s, description: e.description };
    });
    const skills = got.filter((s): s is IndexedSkillWithBody => s !== null);
    if (!skills.length && entries.length && firstError) throw firstError as Error; // nothing came: the site, not an entry
    fs.rmSync(filesDir, { recursive: true, force: true });
    fs.renameSync(staging, filesDir);
    return { skills, skipped: skipped + entries.length - skills.length, dir };
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}
