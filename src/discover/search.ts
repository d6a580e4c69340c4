import MiniSearch, { type Options, type SearchOptions, type SearchResult as MsResult } from 'minisearch';
import type { IndexedSkill, IndexedSkillWithBody } from '../contract/index.js';

// Full-text search over every indexed catalog with MiniSearch (a small, maintained library: BM25+
// ranking, prefix and fuzzy matching, incremental add/discard, toJSON/loadJS to keep an index on
// disk). Measured against FlexSearch 0.8 on the same 20,000-skill corpus (December 2026, two shared
// cores): FlexSearch answered faster but found nothing for most misspelt queries (it matches by
// phonetic encoding, not edit distance) and took as long to build; MiniSearch, asked for exact
// words first, the last word as a prefix and typos only while little was found, answers within a
// few milliseconds for most queries (bench/discover.mjs prints median and p95).
//
// One MiniSearch holds every catalog, so one set of BM25 statistics ranks them all: with one index
// per catalog a skill from a small catalog (a dozen skills) would always score below one from a big
// catalog, whatever the words. The index is kept on disk (search-store.ts) and loads several times
// faster than it builds.
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

/**
 * Change this when what is indexed changes (fields, tokens kept): an index saved by another
 * version is then built anew instead of being searched with terms it does not hold.
 */
export const SEARCH_FORMAT = 'skilldock-search-2';

export type SearchDoc = IndexedSkill & { key: string };
type Indexed = IndexedSkillWithBody & { key: string };

export function docKey(s: { catalog: string; repo?: string; path: string }): string {
  return `${s.catalog}\u0000${s.repo ?? ''}\u0000${s.path}`;
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

const OPTIONS: Options<Indexed> = {
  idField: 'key',
  fields: ['name', 'description', 'body'],
  // Function words are left out of descriptions and bodies when indexed: they are in nearly every
  // skill, so each one is a posting list as long as the catalog that a query walked in full (the
  // slowest queries of the bench were a bare "for" and the like), and they rank nothing. Names keep
  // every word, so a query of function words only still finds a skill named with them.
  processTerm: (t, field) => {
    const w = t.toLowerCase();
    if (w.length > MAX_TERM) return null;
    return field && field !== 'name' && STOP.has(w) ? null : w;
  },
};

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

/** What a saved index holds: the documents' metadata, each catalog's generation, MiniSearch's own. */
export interface SavedSearch {
  format: string;
  catalogs: Record<string, string>;
  docs: SearchDoc[];
  index: unknown;
}

const RISKS = new Set(['none', 'low', 'medium', 'high']);

/** A cheap shape check of one indexed skill in SkillDock's own caches (not user input). */
export function skillShapeOk(s: Partial<IndexedSkill> | null): boolean {
  return (
    !!s &&
    typeof s.catalog === 'string' &&
    typeof s.path === 'string' &&
    typeof s.name === 'string' &&
    typeof s.description === 'string' &&
    typeof s.digest === 'string' &&
    typeof s.scripts === 'boolean' &&
    Array.isArray(s.files) &&
    Array.isArray(s.droppedBy) &&
    typeof s.security === 'object' &&
    s.security !== null &&
    RISKS.has(s.risk as string)
  );
}

function docOk(d: Partial<SearchDoc> | null): boolean {
  return skillShapeOk(d) && typeof d!.key === 'string' && d!.key === docKey(d as SearchDoc);
}

export class SkillSearch {
  private constructor(
    private ms: MiniSearch<Indexed>,
    private docs: Map<string, SearchDoc>,
    /** Per catalog: its doc keys, and the index generation they came from. */
    private byCatalog: Map<string, { stamp: string; keys: Set<string> }>,
  ) {}

  static empty(): SkillSearch {
    return new SkillSearch(new MiniSearch<Indexed>(OPTIONS), new Map(), new Map());
  }

  /**
   * An index saved by `toJSON` (already parsed), or null when it is not one this version wrote or
   * does not hold together: the caller builds a new one from the catalogs' indexes.
   */
  static fromSaved(data: unknown): SkillSearch | null {
    const d = data as Partial<SavedSearch> | null;
    if (!d || d.format !== SEARCH_FORMAT || !Array.isArray(d.docs) || !d.catalogs || typeof d.catalogs !== 'object') return null;
    if (!Object.values(d.catalogs).every((s) => typeof s === 'string')) return null;
    if (!d.docs.every(docOk)) return null;
    let ms: MiniSearch<Indexed>;
    try {
      ms = MiniSearch.loadJS<Indexed>(d.index as Parameters<typeof MiniSearch.loadJS>[0], OPTIONS);
    } catch {
      return null;
    }
    const byCatalog = new Map(Object.entries(d.catalogs).map(([id, stamp]) => [id, { stamp, keys: new Set<string>() }]));
    const docs = new Map<string, SearchDoc>();
    for (const doc of d.docs) {
      const part = byCatalog.get(doc.catalog);
      if (!part || !ms.has(doc.key)) return null;
      part.keys.add(doc.key);
      docs.set(doc.key, doc);
    }
    if (docs.size !== ms.documentCount) return null;
    return new SkillSearch(ms, docs, byCatalog);
  }

  /** What `fromSaved` reads back (MiniSearch serialises itself through its own toJSON). */
  toJSON(): SavedSearch {
    return {
      format: SEARCH_FORMAT,
      catalogs: Object.fromEntries([...this.byCatalog].map(([id, p]) => [id, p.stamp])),
      docs: [...this.docs.values()],
      index: this.ms,
    };
  }

  catalogIds(): string[] {
    return [...this.byCatalog.keys()];
  }

  stamp(catalog: string): string | undefined {
    return this.byCatalog.get(catalog)?.stamp;
  }

  size(): number {
    return this.docs.size;
  }

  /** Make the catalog's documents these skills: only the ones added, changed or gone are touched. */
  sync(catalog: string, stamp: string, skills: IndexedSkillWithBody[]): void {
    const prev = this.byCatalog.get(catalog)?.keys ?? new Set<string>();
    const keys = new Set<string>();
    for (const s of skills) {
      const key = docKey(s);
      if (keys.has(key)) continue; // one entry per folder (a hand-edited index could repeat one)
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

  /** Ranked documents that pass `keep` (null: all); an empty query lists them by name. */
  search(query: string, keep: ((d: SearchDoc) => boolean) | null, limit: number): { doc: SearchDoc; score: number }[] & { total?: number } {
    const terms = queryTerms(query);
    if (!terms.length) {
      const all = [...this.docs.values()]
        .filter((d) => !keep || keep(d))
        .sort((a, b) => a.name.localeCompare(b.name) || a.key.localeCompare(b.key));
      return Object.assign(
        all.slice(0, limit).map((doc) => ({ doc, score: 0 })),
        { total: all.length },
      );
    }
    const base: SearchOptions = { boost: { name: 4, description: 2, body: 1 }, combineWith: 'OR' };
    // Filtered once per hit. (Dropping a skill as its postings are read, through a document boost
    // of 0, measured slower: it is asked once per posting, and most filters keep most skills.)
    if (keep)
      base.filter = (r: MsResult) => {
        const d = this.docs.get(r.id as string);
        return !!d && keep(d);
      };
    // Words that say nothing about a skill ("how do I ...") are left out of the query unless it has
    // nothing else (they are only in names, see OPTIONS).
    const words = terms.filter((t) => !STOP.has(t));
    const q = (words.length ? words : terms).join(' ');
    // Exact words first. Then, while the query finds little, the last word as a prefix (it is being
    // typed) and typos (one edit in 4+ letters, two in 8+), both in names and descriptions only: a
    // short prefix such as "for" expands to hundreds of words, and in bodies their posting lists
    // cover the whole catalog (142 ms for that one query over 20,000 skills; the bench's slowest).
    let hits = this.ms.search(q, base);
    const more = (extra: MsResult[], weight: number) => {
      const seen = new Set(hits.map((h) => h.id as string));
      const fresh = extra.filter((h) => !seen.has(h.id as string));
      if (!fresh.length) return;
      // Each step ranks below every hit of the step before.
      let floor = hits.length ? Infinity : 1;
      for (const h of hits) floor = Math.min(floor, h.score);
      let top = 0;
      for (const h of fresh) top = Math.max(top, h.score);
      hits = [...hits, ...fresh.map((h) => ({ ...h, score: (h.score / top) * floor * weight }))];
    };
    const parts = q.split(' ');
    const last = parts.length - 1;
    if (hits.length < limit && (parts[last] ?? '').length >= 3) {
      const prefix = (t: string, i: number) => i === last && t.length >= 3;
      more(this.ms.search(q, { ...base, fields: ['name', 'description'], prefix }), 0.9);
    }
    if (hits.length < FUZZY_BELOW) {
      more(
        this.ms.search(q, { ...base, fields: ['name', 'description'], fuzzy: (t) => (t.length >= 8 ? 2 : t.length >= 4 ? 1 : false) }),
        0.5,
      );
    }
    return Object.assign(
      hits.slice(0, limit).map((h) => ({ doc: this.docs.get(h.id as string)!, score: h.score })),
      { total: hits.length },
    );
  }
}
