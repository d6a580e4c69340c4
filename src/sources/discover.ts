import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';

// Find skill folders inside a checked-out source without running anything: a SKILL.md at the
// given path, else the usual places (skills/, .claude/skills/, .agents/skills/, the root) and the
// skills a `.claude-plugin/marketplace.json` or `plugin.json` lists. Links are never followed out
// of the checkout: a skill folder, a SKILL.md or a manifest that leads out is skipped and named in
// `linksOut`, so the user hears why it is missing. Paths are relative to the checkout,
// `/`-separated, sorted, unique.

const PLACES = ['', 'skills', '.claude/skills', '.agents/skills'];

export interface Discovered {
  paths: string[];
  /** What was skipped because its real path lies outside the checkout (through a link). */
  linksOut: string[];
}

class Walk {
  readonly linksOut = new Set<string>();
  constructor(
    readonly checkout: string,
    readonly rootReal: string,
  ) {}

  rel(p: string): string {
    return path.relative(this.checkout, p).split(path.sep).join('/');
  }

  /** Does `p` exist with its real path inside the checkout? One that leads out is noted. */
  realInside(p: string): boolean {
    let real: string;
    try {
      real = fs.realpathSync(p);
    } catch {
      return false; // missing or dangling: nothing to read, nothing to report
    }
    if (isInside(real, this.rootReal)) return true;
    this.linksOut.add(this.rel(p));
    return false;
  }

  isSkillDir(p: string): boolean {
    try {
      // A plain file (README.md) is no candidate: only what could be a skill folder is looked into.
      if (!fs.statSync(p).isDirectory()) return false;
      if (!this.realInside(p)) return false;
      const f = path.join(p, 'SKILL.md');
      return fs.existsSync(f) && this.realInside(f) && fs.statSync(f).isFile();
    } catch {
      return false;
    }
  }

  childSkills(dir: string): string[] {
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .filter((n) => n !== '.git' && n !== 'node_modules')
      .map((n) => path.join(dir, n))
      .filter((p) => this.isSkillDir(p));
  }

  readManifest(file: string): unknown {
    try {
      if (!fs.existsSync(file) || !this.realInside(file) || fs.statSync(file).size > 1024 * 1024) return undefined;
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  }

  /** Skill paths listed by plugin manifests: `skills` arrays of paths, also inside `plugins[].source`. */
  manifestSkills(base: string): string[] {
    const out: string[] = [];
    const addList = (from: string, list: unknown) => {
      const items = typeof list === 'string' ? [list] : Array.isArray(list) ? list : [];
      for (const s of items) {
        if (typeof s !== 'string' || path.isAbsolute(s)) continue;
        const p = path.resolve(from, s);
        if (!isInside(p, base)) continue;
        if (this.isSkillDir(p)) out.push(p);
        else out.push(...this.childSkills(p));
      }
    };
    const plugin = (dir: string) => {
      for (const f of [path.join(dir, '.claude-plugin', 'plugin.json'), path.join(dir, 'plugin.json')]) {
        const j = this.readManifest(f) as { skills?: unknown } | undefined;
        if (j && typeof j === 'object') addList(dir, j.skills ?? 'skills');
      }
    };
    plugin(base);
    const market = this.readManifest(path.join(base, '.claude-plugin', 'marketplace.json')) as { plugins?: unknown } | undefined;
    if (market && Array.isArray(market.plugins)) {
      for (const p of market.plugins as Array<{ source?: unknown; skills?: unknown }>) {
        if (!p || typeof p !== 'object') continue;
        const src = typeof p.source === 'string' && !path.isAbsolute(p.source) ? path.resolve(base, p.source) : base;
        if (!isInside(src, base)) continue;
        if (p.skills !== undefined) addList(src, p.skills);
        else {
          plugin(src);
          out.push(...this.childSkills(path.join(src, 'skills')));
        }
      }
    }
    return out;
  }
}

export function discoverSkills(checkout: string, subpath: string): Discovered {
  const w = new Walk(checkout, fs.realpathSync(checkout));
  const done = (found: Iterable<string>): Discovered => ({
    paths: [...new Set([...found].map((p) => w.rel(p)))].sort(),
    linksOut: [...w.linksOut].sort(),
  });
  const base = path.join(checkout, ...(subpath ? subpath.split('/') : []));
  if (!w.realInside(base)) return done([]);
  if (w.isSkillDir(base)) return { paths: [subpath], linksOut: [] };
  const found: string[] = [];
  for (const place of PLACES) found.push(...w.childSkills(path.join(base, ...place.split('/').filter(Boolean))));
  found.push(...w.manifestSkills(base));
  return done(found);
}
