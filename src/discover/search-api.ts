import type { SkillCatalog, SearchResult } from '../contract/index.js';
import { fail } from '../errors.js';
import { getText } from '../sources/http-text.js';
import { plain } from './analyze.js';

// A search service such as skills.sh's, asked at each search (it keeps no index here):
// `GET <base>/api/search?q=<words>&limit=<n>` answers `{ "skills": [{ "id", "name", "installs",
// "source" }] }`, `source` being the repository (`owner/repo`) the skill is installed from. That
// is the shape the reference `skills` CLI reads; a hit is previewed and installed through `add`.

const MAX_ANSWER = 2 * 1024 * 1024;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

export async function searchApi(c: SkillCatalog, query: string, limit: number): Promise<SearchResult[]> {
  const base = c.url.replace(/\/+$/, '');
  const url = `${base}/api/search?q=${encodeURIComponent(query.slice(0, 500))}&limit=${limit}`;
  const text = await getText(url, MAX_ANSWER);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw fail('bad-request', 'discover.bad-index', { url: base, reason: { key: 'discover.reason.json' } });
  }
  const list = (data as { skills?: unknown })?.skills;
  if (!Array.isArray(list)) throw fail('bad-request', 'discover.bad-index', { url: base, reason: { key: 'discover.reason.results' } });
  const out: SearchResult[] = [];
  for (const [i, e] of list.slice(0, limit).entries()) {
    const o = e as { name?: unknown; source?: unknown; installs?: unknown };
    if (typeof o?.name !== 'string' || !NAME.test(o.name) || typeof o.source !== 'string' || !o.source || o.source.length > 500) continue;
    out.push({
      catalog: c.id,
      path: o.name,
      repo: plain(o.source, 500),
      name: o.name,
      description: '',
      digest: '',
      files: [],
      scripts: false,
      errors: 0,
      warnings: 0,
      droppedBy: [],
      security: { high: 0, medium: 0, low: 0, executable: false },
      risk: 'none',
      score: -i,
      updateAvailable: false,
      remote: true,
    });
  }
  return out;
}
