import fs from 'node:fs';
import path from 'node:path';
import type { Diagnostic, IndexedSkillWithBody, Risk } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { skillFacts } from '../library/analyze.js';
import { scanSkillDir } from '../security/scan.js';

// One skill folder of a catalog, as its index keeps it: what lint and the security scan say about
// it and the text search reads. Read only: nothing in the folder runs.

/** Files listed per skill: enough to show what it holds, bounded for a hostile folder. */
const MAX_FILES = 500;
/** SKILL.md text kept for search and preview. */
const MAX_BODY = 256 * 1024;

export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string, depth: number) => {
    if (depth > 8 || out.length >= MAX_FILES) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= MAX_FILES) return;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r, depth + 1);
      else out.push(r);
    }
  };
  walk('', 0);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function riskOf(s: { high: number; medium: number; low: number }): Risk {
  return s.high ? 'high' : s.medium ? 'medium' : s.low ? 'low' : 'none';
}

/** Agents whose loader drops the skill: the agents an error finding names. */
export function droppedBy(diagnostics: Diagnostic[]): string[] {
  const ids = new Set<string>();
  for (const d of diagnostics) if (d.severity === 'error') for (const a of d.agents ?? []) ids.add(a);
  return [...ids].sort();
}

export function readBody(dir: string): string {
  try {
    const fd = fs.openSync(path.join(dir, 'SKILL.md'), 'r');
    try {
      const buf = Buffer.alloc(MAX_BODY);
      const n = fs.readSync(fd, buf, 0, MAX_BODY, 0);
      return buf.subarray(0, n).toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

/** Strip control characters (a hostile name or description must not reach a terminal as escapes). */
export function plain(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '').slice(0, max);
}

export interface AnalyzeTarget {
  catalog: string;
  path: string;
  repo?: string;
  commit?: string;
}

export async function analyzeCatalogSkill(ctx: ServiceContext, dir: string, t: AnalyzeTarget): Promise<IndexedSkillWithBody> {
  const f = await skillFacts(ctx, dir, path.basename(dir));
  const scan = scanSkillDir(dir);
  const level = (l: string) => scan.findings.filter((x) => x.level === l).length;
  const security = { high: level('high'), medium: level('medium'), low: level('low'), executable: scan.hasExecutableSurface };
  const files = listFiles(dir);
  return {
    catalog: t.catalog,
    path: t.path,
    ...(t.repo ? { repo: t.repo } : {}),
    name: plain(f.name ?? path.basename(dir), 200),
    description: plain(f.description ?? '', 2000),
    ...(t.commit ? { commit: t.commit } : {}),
    digest: f.digest,
    files,
    scripts: security.executable || files.some((x) => x.startsWith('scripts/')),
    errors: f.diagnostics.filter((d) => d.severity === 'error').length,
    warnings: f.diagnostics.filter((d) => d.severity === 'warning').length,
    droppedBy: droppedBy(f.diagnostics),
    security,
    risk: riskOf(security),
    body: readBody(dir),
  };
}
