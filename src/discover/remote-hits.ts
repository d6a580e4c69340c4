import fs from 'node:fs';
import path from 'node:path';
import type { IndexedSkill, IndexedSkillWithBody, SearchResult, SkillCatalog } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { writeFileAtomic } from '../store/index.js';
import { catalogDir } from './store.js';
import { skillShapeOk } from './search.js';
import { searchApi } from './search-api.js';

// A search service's hits name a skill and its repository, nothing more. Each hit previewed is
// analysed there (lint, security scan, scripts, what each agent drops); the analysis is kept per
// catalog in `<home>/catalogs/<id>/remote.json` (repository + name → the skill as an index keeps
// it), so later searches show what is known and filters judge those hits like indexed ones. A hit
// never previewed cannot be judged: a filtered search leaves it out and says how many it left.

/** Analyses kept per search service; the oldest go first past this. */
const MAX_KEPT = 2000;

const keyOf = (repo: string, name: string) => `${repo}\u0000${name}`;

function file(ctx: ServiceContext, id: string): string {
  return path.join(catalogDir(ctx, id), 'remote.json');
}

function readAnalyses(ctx: ServiceContext, id: string): Record<string, IndexedSkill> {
  try {
    const data = JSON.parse(fs.readFileSync(file(ctx, id), 'utf8')) as unknown;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
    // SkillDock's own cache: an entry of the wrong shape is left out, the rest kept.
    return Object.fromEntries(Object.entries(data).filter(([, s]) => skillShapeOk(s as IndexedSkill))) as Record<string, IndexedSkill>;
  } catch {
    return {};
  }
}

/** Keep what a preview found out about a hit (its folder's name is the hit's name). */
export function recordAnalysis(ctx: ServiceContext, id: string, s: IndexedSkillWithBody): void {
  if (!s.repo) return;
  const { body: _body, ...meta } = s;
  void _body;
  const all = readAnalyses(ctx, id);
  const key = keyOf(s.repo, path.posix.basename(s.path));
  delete all[key];
  all[key] = meta;
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_KEPT))) delete all[k];
  writeFileAtomic(file(ctx, id), JSON.stringify(all));
}

/**
 * The service's hits for `query`, each with what its preview found when there was one. With a
 * filter (`keep` not null), hits are judged by it, and hits never previewed are left out and counted.
 */
export async function remoteHits(
  ctx: ServiceContext,
  c: SkillCatalog,
  query: string,
  limit: number,
  keep: ((s: IndexedSkill) => boolean) | null,
  state: (s: IndexedSkill) => Pick<SearchResult, 'installed' | 'updateAvailable'>,
): Promise<{ results: SearchResult[]; unjudged: number }> {
  const known = readAnalyses(ctx, c.id);
  const results: SearchResult[] = [];
  let unjudged = 0;
  for (const hit of await searchApi(c, query, limit)) {
    const seen = hit.repo ? known[keyOf(hit.repo, hit.name)] : undefined;
    if (keep && !seen) {
      unjudged++;
      continue;
    }
    const s = seen ? { ...seen, catalog: c.id } : hit;
    if (keep && !keep(s)) continue;
    results.push({ ...s, score: hit.score, remote: true, ...state(s) });
  }
  return { results, unjudged };
}
