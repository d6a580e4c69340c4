import fs from 'node:fs';
import path from 'node:path';
import type { SkillCatalog, IndexedSkillWithBody } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { mapLimit } from '../catalog/scan.js';
import { analyzeCatalogSkill } from './analyze.js';
import { getText } from './http.js';

// A web host's well-known skills index, in the format the reference `skills` CLI reads:
// `<site>/.well-known/agent-skills/index.json` (newer) or `<site>/.well-known/skills/index.json`,
// `{ "skills": [{ "name", "description", "files": ["SKILL.md", ...] }] }`, each file at
// `<site>/.well-known/<skills|agent-skills>/<name>/<file>`. Every file is downloaded into the
// catalog's own folder (`<home>/catalogs/<id>/files/<name>/`), linted and scanned there; install
// copies exactly those files. An entry with a hostile name or path is left out and counted.

const WELL_KNOWN = ['.well-known/agent-skills', '.well-known/skills'];
const MAX_INDEX = 5 * 1024 * 1024;
const MAX_FILE = 1024 * 1024;
const MAX_ENTRIES = 5000;
const MAX_FILES_PER_SKILL = 100;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export interface WellKnownEntry {
  name: string;
  description: string;
  files: string[];
}

function fileOk(f: unknown): f is string {
  if (typeof f !== 'string' || !f || f.length > 200 || CONTROL.test(f) || f.includes('\\') || f.startsWith('/')) return false;
  return f.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The entries SkillDock accepts, and how many it left out. */
export function parseWellKnown(url: string, text: string): { entries: WellKnownEntry[]; skipped: number } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw fail('bad-request', 'discover.bad-index', { url, reason: { key: 'discover.reason.json' } });
  }
  const list = (data as { skills?: unknown })?.skills;
  if (!Array.isArray(list)) throw fail('bad-request', 'discover.bad-index', { url, reason: { key: 'discover.reason.shape' } });
  const entries: WellKnownEntry[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  for (const e of list.slice(0, MAX_ENTRIES)) {
    const o = e as { name?: unknown; description?: unknown; files?: unknown };
    const ok =
      o &&
      typeof o.name === 'string' &&
      NAME.test(o.name) &&
      !seen.has(o.name) &&
      typeof o.description === 'string' &&
      o.description.length <= 2000 &&
      !CONTROL.test(o.description) &&
      Array.isArray(o.files) &&
      o.files.length <= MAX_FILES_PER_SKILL &&
      o.files.every(fileOk) &&
      o.files.includes('SKILL.md');
    if (!ok) {
      skipped++;
      continue;
    }
    seen.add(o.name as string);
    entries.push({ name: o.name as string, description: o.description as string, files: [...new Set(o.files as string[])] });
  }
  return { entries, skipped: skipped + Math.max(0, list.length - MAX_ENTRIES) };
}

function siteBase(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/\.well-known\/(agent-skills|skills)(\/index\.json)?$/, '');
}

/** Fetch the index (agent-skills first, then skills): the URL it answered at and its text. */
async function fetchIndex(url: string, signal?: AbortSignal): Promise<{ dir: string; text: string }> {
  const base = siteBase(url);
  let last: unknown;
  for (const wk of WELL_KNOWN) {
    try {
      return { dir: `${base}/${wk}`, text: await getText(`${base}/${wk}/index.json`, MAX_INDEX, signal) };
    } catch (err) {
      last = err;
      if ((err as { msg?: { key?: string } }).msg?.key !== 'discover.http') throw err; // unreachable, slow: no second try
    }
  }
  throw last;
}

export interface WellKnownResult {
  skills: IndexedSkillWithBody[];
  skipped: number;
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
        for (const f of e.files) {
          const body = await getText(`${dir}/${e.name}/${f.split('/').map(encodeURIComponent).join('/')}`, MAX_FILE, signal);
          const dest = path.join(skillDir, ...f.split('/'));
          fs.mkdirSync(path.dirname(dest), { recursive: true });
          fs.writeFileSync(dest, body, { flag: 'wx' });
        }
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
    return { skills, skipped: skipped + entries.length - skills.length };
  } catch (err) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}
