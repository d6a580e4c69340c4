import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';

// Find skill folders inside a checked-out source without running anything: a SKILL.md at the
// given path, else the usual places (skills/, .claude/skills/, .agents/skills/, the root) and the
// skills a `.claude-plugin/marketplace.json` or `plugin.json` lists. Links are never followed out
// of the checkout. Returns paths relative to the checkout, `/`-separated, sorted, unique.

const PLACES = ['', 'skills', '.claude/skills', '.agents/skills'];

function realInside(p: string, rootReal: string): boolean {
  try {
    return isInside(fs.realpathSync(p), rootReal);
  } catch {
    return false;
  }
}

function isSkillDir(p: string, rootReal: string): boolean {
  try {
    if (!realInside(p, rootReal) || !fs.statSync(p).isDirectory()) return false;
    const f = path.join(p, 'SKILL.md');
    return realInside(f, rootReal) && fs.statSync(f).isFile();
  } catch {
    return false;
  }
}

function childSkills(dir: string, rootReal: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n !== '.git' && n !== 'node_modules')
    .map((n) => path.join(dir, n))
    .filter((p) => isSkillDir(p, rootReal));
}

/** Skill paths listed by plugin manifests: `skills` arrays of paths, also inside `plugins[].source`. */
function manifestSkills(base: string, rootReal: string): string[] {
  const out: string[] = [];
  const read = (file: string): unknown => {
    try {
      if (!realInside(file, rootReal) || fs.statSync(file).size > 1024 * 1024) return undefined;
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  };
  const addList = (from: string, list: unknown) => {
    const items = typeof list === 'string' ? [list] : Array.isArray(list) ? list : [];
    for (const s of items) {
      if (typeof s !== 'string' || path.isAbsolute(s)) continue;
      const p = path.resolve(from, s);
      if (!isInside(p, base)) continue;
      if (isSkillDir(p, rootReal)) out.push(p);
      else out.push(...childSkills(p, rootReal));
    }
  };
  const plugin = (dir: string) => {
    for (const f of [path.join(dir, '.claude-plugin', 'plugin.json'), path.join(dir, 'plugin.json')]) {
      const j = read(f) as { skills?: unknown } | undefined;
      if (j && typeof j === 'object') addList(dir, j.skills ?? 'skills');
    }
  };
  plugin(base);
  const market = read(path.join(base, '.claude-plugin', 'marketplace.json')) as { plugins?: unknown } | undefined;
  if (market && Array.isArray(market.plugins)) {
    for (const p of market.plugins as Array<{ source?: unknown; skills?: unknown }>) {
      if (!p || typeof p !== 'object') continue;
      const src = typeof p.source === 'string' && !path.isAbsolute(p.source) ? path.resolve(base, p.source) : base;
      if (!isInside(src, base)) continue;
      if (p.skills !== undefined) addList(src, p.skills);
      else {
        plugin(src);
        out.push(...childSkills(path.join(src, 'skills'), rootReal));
      }
    }
  }
  return out;
}

export function discoverSkills(checkout: string, subpath: string): string[] {
  const rootReal = fs.realpathSync(checkout);
  const base = path.join(checkout, ...(subpath ? subpath.split('/') : []));
  if (!realInside(base, rootReal)) return [];
  if (isSkillDir(base, rootReal)) return [subpath];
  const found = new Set<string>();
  for (const place of PLACES) for (const p of childSkills(path.join(base, ...place.split('/').filter(Boolean)), rootReal)) found.add(p);
  for (const p of manifestSkills(base, rootReal)) found.add(p);
  return [...found].map((p) => path.relative(checkout, p).split(path.sep).join('/')).sort();
}
