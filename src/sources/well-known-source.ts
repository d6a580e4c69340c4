import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fail } from '../errors.js';
import { getText } from './http-text.js';
import type { ParsedSource } from './parse.js';

// A web host's well-known skills index, in the format the reference `skills` CLI reads:
// `<site>/.well-known/agent-skills/index.json` (newer) or `<site>/.well-known/skills/index.json`,
// `{ "skills": [{ "name", "description", "files": ["SKILL.md", ...] }] }`, each file at
// `<site>/.well-known/<skills|agent-skills>/<name>/<file>`. An entry with a hostile name or path is
// left out. A catalog (src/discover/) indexes every entry; as a source, one skill is
// `<site>/.well-known/<skills|agent-skills>/<name>`: its files are downloaded, and its "commit" is
// the digest of those files (wellKnownDigest), so `check` downloads them again and compares.

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

export function siteBase(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/\.well-known\/(agent-skills|skills)(\/index\.json)?$/, '');
}

/** Fetch the index (agent-skills first, then skills): the URL it answered at and its text. */
export async function fetchIndex(url: string, signal?: AbortSignal): Promise<{ dir: string; text: string }> {
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

/** Download one entry's files into `dest` (made), each at most MAX_FILE bytes. */
export async function downloadEntry(dir: string, e: WellKnownEntry, dest: string, signal?: AbortSignal): Promise<void> {
  for (const f of e.files) {
    const body = await getText(`${dir}/${e.name}/${f.split('/').map(encodeURIComponent).join('/')}`, MAX_FILE, signal);
    const to = path.join(dest, ...f.split('/'));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, body, { flag: 'wx' });
  }
}

/**
 * The version of a well-known skill: SHA-256 over its files' names and contents, in name order.
 * The same files give the same digest, wherever they were downloaded to.
 */
export function wellKnownDigest(skillDir: string): string {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(skillDir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else files.push(r);
    }
  };
  walk('');
  const h = createHash('sha256');
  for (const f of files.sort()) {
    h.update(`${f}\0`);
    h.update(
      createHash('sha256')
        .update(fs.readFileSync(path.join(skillDir, ...f.split('/'))))
        .digest('hex'),
    );
    h.update('\n');
  }
  return h.digest('hex');
}

/** `<site>/.well-known/<skills|agent-skills>/<name>`: the folder URL and the skill's name. */
export function wellKnownSkillUrl(url: string): { dir: string; name: string } | null {
  const m = /^(.*\/\.well-known\/(?:agent-skills|skills))\/([a-z0-9][a-z0-9-]{0,63})\/?$/.exec(url);
  return m ? { dir: m[1]!, name: m[2]! } : null;
}

/** One skill of a well-known index into `scratch/<name>/`, as the index lists it now. */
export async function fetchWellKnownSkill(
  p: ParsedSource,
  scratch: string,
  signal?: AbortSignal,
): Promise<{ dir: string; commit: string }> {
  const at = wellKnownSkillUrl(p.url);
  if (!at) throw fail('bad-request', 'sources.bad-source', { source: p.given, reason: { key: 'sources.reason.url' } });
  const text = await getText(`${at.dir}/index.json`, MAX_INDEX, signal);
  const entry = parseWellKnown(at.dir, text).entries.find((e) => e.name === at.name);
  if (!entry) throw fail('not-found', 'sources.skill-not-in-source', { source: p.given, skill: at.name });
  const dest = path.join(scratch, at.name);
  await downloadEntry(at.dir, entry, dest, signal);
  return { dir: scratch, commit: wellKnownDigest(dest) };
}
