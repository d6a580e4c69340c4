import MiniSearch, { type SearchResult as MsResult } from 'minisearch';
import type { IndexedSkill, IndexedSkillWithBody } from '../contract/index.js';

// Full-text search over every indexed catalog with MiniSearch (a small, maintained library: BM25+
// ranking, prefix and fuzzy matching, incremental add/discard). Measured against FlexSearch 0.8 on
// the same 20,000-skill corpus (December 2026, two shared cores): FlexSearch answered faster but
// found nothing for most misspelt queries (it matches by phonetic encoding, not edit distance) and
// took as long to build; MiniSearch, asked for exact words first, the last word as a prefix and
// typos only while little was found, and without English function words, answers within a few
// milliseconds for most queries (bench/discover.mjs prints median and p95).
//
// A query is plain words: the tokenizer drops punctuation, so regex characters are just text, and
// only the first MAX_TERMS words of at most MAX_QUERY characters are read.

export const MAX_QUERY = 10_000;
const MAX_TERMS = 32;
const MAX_TERM = 64;
/** Fewer hits than this from exact and prefix matching: ask again with typo tolerance. */
const FUZZY_BELOW = 10;

/** English words that say nothing about what a skill does. */
const STOP = new Set(
  'a an and are as at be but by can do does for from how i if in into is it its me my of on or so that the this to use using want what when which with you your'.split(
    ' ',
  ),
);

export type SearchDoc = IndexedSkill & { key: string };

export function docKey(s: { catalog: string; repo?: string; path: string }): string {
  return `${s.catalog}\u0000${s.repo ?? ''}\u0000${s.path}`;
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** The words of a query, lower-cased, unique, bounded. */
export function queryTerms(query: string): string[] {
  const out: string[] = [];
  for (const t of tokenize(query.slice(0, MAX_QUERY))) {
    const w = t.toLowerCase();
    if (!w || w.length > MAX_TERM || out.includes(w)) continue;
    out.push(w);
    if (out.length >= MAX_TERMS) break;
  }
  return out;
}

export class SkillSearch {
  private ms = new MiniSearch<IndexedSkillWithBody & { key: string }>({
    idField: 'key',
    fields: ['name', 'description', 'body'],
    processTerm: (t) => {
      const w = t.toLowerCase();
      return w.length > MAX_TERM ? null : w;
    },
  });
  private docs = new Map<string, SearchDoc>();
  /** Per catalog: its doc keys, and the index generation they came from. */
  private byCatalog = new Map<string, { stamp: string; keys: Set<string> }>();

  catalogIds(): string[] {
    return [...this.byCatalog.keys()];
  }

  stamp(catalog: string): string | undefined {
    return this.byCatalog.get(catalog)?.stamp;
  }

  /** Make the catalog's documents these skills: only the ones added, changed or gone are touched. */
  sync(catalog: string, stamp: string, skills: IndexedSkillWithBody[]): void {
    const prev = this.byCatalog.get(catalog)?.keys ?? new Set<string>();
    const keys = new Set<string>();
    for (const s of skills) {
      const key = docKey(s);
      keys.add(key);
      const old = this.docs.get(key);
      const { body: _body, ...meta } = s;
      void _body;
      if (old && old.digest === s.digest) {
        this.docs.set(key, { ...meta, key }); // commit and the like, not the text
        continue;
      }
      if (old) this.ms.discard(key);
      this.ms.add({ ...s, key });
      this.docs.set(key, { ...meta, key });
    }
    for (const key of prev) {
      if (keys.has(key)) continue;
      this.ms.discard(key);
      this.docs.delete(key);
    }
    this.byCatalog.set(catalog, { stamp, keys });
  }

  drop(catalog: string): void {
    this.sync(catalog, '', []);
    this.byCatalog.delete(catalog);
  }

  /** Ranked documents that pass `keep`; an empty query lists them by name. */
  search(query: string, keep: (d: SearchDoc) => boolean, limit: number): { doc: SearchDoc; score: number }[] & { total?: number } {
    const terms = queryTerms(query);
    if (!terms.length) {
      const all = [...this.docs.values()].filter(keep).sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
      return Object.assign(
        all.slice(0, limit).map((doc) => ({ doc, score: 0 })),
        { total: all.length },
      );
    }
    const filter = (r: MsResult) => {
      const d = this.docs.get(r.id as string);
      return !!d && keep(d);
    };
    const boost = { name: 4, description: 2, body: 1 };
    // Words that say nothing about a skill ("how do I ...") are left out of the ranking unless the
    // query has nothing else: they match nearly every document and only cost time.
    const words = terms.filter((t) => !STOP.has(t));
    const q = (words.length ? words : terms).join(' ');
    // Exact words first. Then, while the query finds little, the last word as a prefix (it is being
    // typed), then typos in names and descriptions (one edit in 4+ letters, two in 8+).
    let hits = this.ms.search(q, { boost, combineWith: 'OR', filter });
    const more = (extra: MsResult[], weight: number) => {
      const seen = new Set(hits.map((h) => h.id as string));
      const fresh = extra.filter((h) => !seen.has(h.id as string));
      if (!fresh.length) return;
      // Each step ranks below every hit of the step before.
      const floor = hits.length ? Math.min(...hits.map((h) => h.score)) : 1;
      const top = Math.max(...fresh.map((h) => h.score));
      hits = [...hits, ...fresh.map((h) => ({ ...h, score: (h.score / top) * floor * weight }))];
    };
    const last = q.split(' ').length - 1;
    if (hits.length < limit && (q.split(' ')[last] ?? '').length >= 3) {
      more(this.ms.search(q, { boost, combineWith: 'OR', filter, prefix: (t, i) => i === last && t.length >= 3 }), 0.9);
    }
    if (hits.length < FUZZY_BELOW) {
      more(
        this.ms.search(q, {
          boost,
          fields: ['name', 'description'],
          fuzzy: (t) => (t.length >= 8 ? 2 : t.length >= 4 ? 1 : false),
          combineWith: 'OR',
          filter,
        }),
        0.5,
      );
    }
    return Object.assign(
      hits.slice(0, limit).map((h) => ({ doc: this.docs.get(h.id as string)!, score: h.score })),
      { total: hits.length },
    );
  }
}
