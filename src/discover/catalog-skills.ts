import fs from 'node:fs';
import path from 'node:path';
import type {
  SkillCatalog,
  ConflictChoice,
  IndexedSkill,
  IndexedSkillWithBody,
  MessageRef,
  Preview,
  SearchInput,
  SearchResult,
  SkillOrigin,
} from '../contract/index.js';
import { formatMessage, type ImportSummary } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail, SkillDockError } from '../errors.js';
import { getSources } from '../sources/service.js';
import { treeFiles } from '../sources/git-tree.js';
import { discoverSkills } from '../sources/discover.js';
import { makeScratch } from '../sources/scratch.js';
import { libraryDir } from '../library/trash.js';
import { lstatOrNull } from '../library/tree.js';
import { skillFacts } from '../library/analyze.js';
import { scanSkillDir } from '../security/scan.js';
import { allAgents } from '../agents/registry.js';
import { getSettings } from '../settings/settings.js';
import { catalogDir, dropSavedSearch, indexStamp, readIndex, readSavedSearch, readWebInstalls, saveSearch } from './store.js';
import { getDiscover, type DiscoverService } from './service.js';
import { SkillSearch } from './search.js';
import { recordAnalysis, remoteHits } from './remote-hits.js';
import { analyzeCatalogSkill } from './analyze.js';
import { mirrorAtNewest } from './git-index.js';
import { siteBase, wellKnownDigest } from '../sources/well-known-source.js';

// Search, preview and install over the catalogs' indexes. Search reads only the indexes on disk
// (kept in memory between calls, re-read when a refresh wrote a new one) and the library's
// provenance: it works offline. Install goes through `add` (src/sources/) from the catalog's mirror
// at the indexed commit, so the skill gets provenance and `check` / `update` work on it.

/** Findings name files inside the skill, not SkillDock's mirror or scratch folder. */
function relativeFiles<T extends { file: string }>(dir: string, list: T[]): T[] {
  return list.map((d) =>
    path.isAbsolute(d.file) ? { ...d, file: path.relative(dir, d.file).split(path.sep).join('/') || 'SKILL.md' } : d,
  );
}

const RISK_ORDER = { none: 0, low: 1, medium: 2, high: 3 } as const;
/** A search service's hit previewed again within this long reads its repository's mirror as it is. */
const REMOTE_MAX_AGE_MS = 10 * 60 * 1000;

export class CatalogSkills {
  private index: SkillSearch | null = null;
  private wkDirs = new Map<string, { stamp: string; dir: string }>();
  private keys = new Map<string, string>();

  constructor(
    private ctx: ServiceContext,
    private d: DiscoverService,
  ) {}

  /** The key `sources` gives a URL ("the same source"), or the URL itself when it does not parse. */
  private sourceKey(url: string): string {
    let k = this.keys.get(url);
    if (k === undefined) {
      try {
        k = getSources(this.ctx).parse(url).key;
      } catch {
        k = url;
      }
      this.keys.set(url, k);
    }
    return k;
  }

  /**
   * The search index, in line with every catalog's index file: the one in memory, else the one
   * saved on disk, else a new one; a catalog whose index file changed since is brought in line
   * (only its added, changed and removed skills), and then the index is saved again. Disabled
   * catalogs stay in it (turning one on again costs nothing) and are filtered out by `search`.
   */
  private searchIndex(catalogs: SkillCatalog[], rebuild = false): SkillSearch {
    if (rebuild) {
      this.index = null;
      dropSavedSearch(this.ctx);
    }
    const saved = this.index || rebuild ? null : readSavedSearch(this.ctx);
    let changed = !this.index && !saved;
    const index = this.index ?? saved ?? SkillSearch.empty();
    this.index = index;
    const live = new Set<string>();
    for (const c of catalogs) {
      if (c.kind === 'search-api') continue;
      live.add(c.id);
      const stamp = indexStamp(this.ctx, c.id);
      if (index.stamp(c.id) === stamp) continue;
      index.sync(c.id, stamp, readIndex(this.ctx, c.id)?.skills ?? []);
      changed = true;
    }
    for (const id of index.catalogIds()) {
      if (live.has(id)) continue;
      index.drop(id);
      changed = true;
    }
    if (changed) saveSearch(this.ctx, index);
    return index;
  }

  /** Library skills by where they came from: source key + path → name and origin. */
  private installed(): Map<string, { name: string; origin: SkillOrigin }> {
    const out = new Map<string, { name: string; origin: SkillOrigin }>();
    for (const [name, origin] of Object.entries(getSources(this.ctx).listProvenance())) {
      if (!lstatOrNull(path.join(libraryDir(this.ctx), name))) continue;
      out.set(`${this.sourceKey(origin.source.url)}\u0000${origin.path}`, { name, origin });
    }
    return out;
  }

  /** A well-known catalog's index folder URL, read from its index once per index generation. */
  private wellKnownDir(c: SkillCatalog): string {
    const stamp = indexStamp(this.ctx, c.id);
    const memo = this.wkDirs.get(c.id);
    if (memo?.stamp === stamp) return memo.dir;
    // An index written before the folder was recorded: the older of the two well-known folders.
    const dir = readIndex(this.ctx, c.id)?.wellKnown ?? `${siteBase(c.url)}/.well-known/skills`;
    this.wkDirs.set(c.id, { stamp, dir });
    return dir;
  }

  private filesDigest(c: SkillCatalog, s: IndexedSkill): string | null {
    try {
      return wellKnownDigest(path.join(catalogDir(this.ctx, c.id), 'files', s.path));
    } catch {
      return null; // files gone (a refresh under way): no claim of an update
    }
  }

  /** The source a skill of a catalog installs from (what `add` records as its provenance). */
  private sourceUrl(c: SkillCatalog, s: IndexedSkill): string {
    return c.kind === 'well-known' ? `${this.wellKnownDir(c)}/${s.path}` : (s.repo ?? c.url);
  }

  private installState(c: SkillCatalog | undefined, s: IndexedSkill, inst: ReturnType<CatalogSkills['installed']>) {
    if (!c) return { updateAvailable: false };
    if (c.kind === 'well-known') {
      const hit = inst.get(`${this.sourceKey(this.sourceUrl(c, s))}\u0000${s.path}`);
      // Its "commit" is the digest of its files: those the catalog holds now against those installed.
      if (hit) {
        const now = this.filesDigest(c, s);
        return { installed: hit.name, updateAvailable: now !== null && now !== hit.origin.commit };
      }
      // Installed before well-known skills had provenance: a record in <home>/catalogs/installed.json.
      for (const [name, rec] of Object.entries(readWebInstalls(this.ctx))) {
        if (rec.catalog !== c.id || rec.path !== s.path || !lstatOrNull(path.join(libraryDir(this.ctx), name))) continue;
        return { installed: name, updateAvailable: rec.digest !== s.digest };
      }
      return { updateAvailable: false };
    }
    const hit = inst.get(`${this.sourceKey(s.repo ?? c.url)}\u0000${s.path}`);
    if (!hit) return { updateAvailable: false };
    const newer = !!s.commit && s.commit !== hit.origin.commit && s.digest !== hit.origin.upstreamDigest;
    return { installed: hit.name, updateAvailable: newer };
  }

  async search(
    input: SearchInput,
  ): Promise<{ results: SearchResult[]; total: number; problems: { catalog: string; message: string; msg: MessageRef }[] }> {
    const all = this.d.catalogs();
    const wanted = input.catalogs?.length ? new Set(input.catalogs) : null;
    const byId = new Map(all.map((c) => [c.id, c]));
    const inst = this.installed();
    const limit = input.limit ?? 50;
    const off = new Set(all.filter((c) => !c.enabled).map((c) => c.id));
    /** Filters on what a skill is (not on which catalog it is in). */
    const judged = !!input.agent || input.scripts !== undefined || !!input.maxRisk || input.installed !== undefined;
    const filtered = judged || !!wanted || off.size > 0;
    const keep = (doc: IndexedSkill): boolean => {
      if (off.has(doc.catalog) || (wanted && !wanted.has(doc.catalog))) return false;
      if (input.agent && doc.droppedBy.includes(input.agent)) return false;
      if (input.scripts !== undefined && doc.scripts !== input.scripts) return false;
      if (input.maxRisk && RISK_ORDER[doc.risk] > RISK_ORDER[input.maxRisk]) return false;
      if (input.installed !== undefined && !!this.installState(byId.get(doc.catalog), doc, inst).installed !== input.installed)
        return false;
      return true;
    };
    let hits: ReturnType<SkillSearch['search']>;
    try {
      hits = this.searchIndex(all).search(input.query, filtered ? keep : null, limit);
    } catch {
      // A saved index that read back as whole yet does not hold together (hand-edited, or written
      // by a broken build): built anew from the catalogs' indexes, once.
      hits = this.searchIndex(all, true).search(input.query, filtered ? keep : null, limit);
    }
    const results: SearchResult[] = hits.map(({ doc, score }) => {
      const { key: _key, ...skill } = doc;
      void _key;
      return { ...skill, score, ...this.installState(byId.get(doc.catalog), doc, inst) };
    });
    const problems: { catalog: string; message: string; msg: MessageRef }[] = [];
    const problem = (c: SkillCatalog, msg: MessageRef) => problems.push({ catalog: c.id, message: formatMessage(msg), msg });
    for (const c of all) {
      if (!input.query.trim() || c.kind !== 'search-api' || !c.enabled || (wanted && !wanted.has(c.id))) continue;
      try {
        const state = (s: IndexedSkill) => this.installState(c, s, inst);
        const r = await remoteHits(this.ctx, c, input.query, Math.min(limit, 50), judged ? keep : null, state);
        results.push(...r.results);
        if (r.unjudged) problem(c, { key: 'discover.remote-unjudged', params: { id: c.id, count: r.unjudged } });
      } catch (err) {
        if (!(err instanceof SkillDockError)) throw err;
        problem(c, { key: 'discover.search-failed', params: { id: c.id, detail: err.msg ?? err.message } });
      }
    }
    return { results, total: (hits.total ?? hits.length) + (results.length - hits.length), problems };
  }

  /** The index entry of a skill (own repository or one a marketplace names). */
  entry(c: SkillCatalog, skillPath: string, repo?: string): IndexedSkillWithBody {
    const idx = readIndex(this.ctx, c.id);
    const s = idx?.skills.find((x) => x.path === skillPath && (x.repo ?? '') === (repo ?? ''));
    if (!s) throw fail('not-found', 'discover.not-indexed', { id: c.id, path: skillPath });
    return s;
  }

  /** Where the indexed files of a skill are on disk (the mirror at the indexed commit). */
  private folder(c: SkillCatalog, s: IndexedSkillWithBody): string {
    if (c.kind === 'well-known') return path.join(catalogDir(this.ctx, c.id), 'files', s.path);
    return path.join(this.d.mirrorDir(c, s.repo), ...s.path.split('/').filter(Boolean));
  }

  private agentsView(diagnostics: Preview['diagnostics']): Preview['agents'] {
    return allAgents(this.ctx.paths.resourcesDir, getSettings(this.ctx).get().customAgents).map((a) => {
      const codes = diagnostics.filter((x) => x.severity === 'error' && x.agents?.includes(a.id)).map((x) => x.code);
      return { agent: a.id, listed: codes.length === 0, codes };
    });
  }

  async preview(catalogId: string, skillPath: string, repo?: string): Promise<Preview> {
    const c = this.d.catalog(catalogId);
    if (c.kind === 'search-api') return this.previewRemote(c, skillPath, repo);
    return this.d.serial(c.id, async () => {
      const s = this.entry(c, skillPath, repo);
      const dir = this.folder(c, s);
      const facts = await skillFacts(this.ctx, dir, path.basename(dir));
      return {
        skill: s,
        source: { url: s.repo ?? c.url, ...(s.commit ? { commit: s.commit } : {}), path: s.path },
        diagnostics: relativeFiles(dir, facts.diagnostics),
        findings: relativeFiles(dir, scanSkillDir(dir).findings),
        agents: this.agentsView(facts.diagnostics),
        ...this.installState(c, s, this.installed()),
      };
    });
  }

  /**
   * A search-API hit: its repository is kept as a mirror of the catalog's (fetched again at most
   * every REMOTE_MAX_AGE_MS, and then only what changed), the skill found in it by name and analysed
   * there. Before, every preview cloned the repository anew.
   */
  private async previewRemote(c: SkillCatalog, name: string, repo?: string): Promise<Preview> {
    if (!repo) throw fail('not-found', 'discover.not-indexed', { id: c.id, path: name });
    const p = getSources(this.ctx).parse(repo);
    return this.d.serial(c.id, async () => {
      const mirror = this.d.mirrorDir(c, repo);
      const commit = await mirrorAtNewest(
        { given: repo, url: p.url, ...(p.ref ? { ref: p.ref } : {}), repoDir: mirror },
        REMOTE_MAX_AGE_MS,
      );
      const rel = discoverSkills(mirror, p.subpath).paths.find((r) => path.posix.basename(r) === name);
      if (rel === undefined) throw fail('not-found', 'sources.skill-not-in-source', { source: repo, skill: name });
      const dir = path.join(mirror, ...rel.split('/').filter(Boolean));
      const s = await analyzeCatalogSkill(this.ctx, dir, { catalog: c.id, path: rel, repo, commit });
      recordAnalysis(this.ctx, c.id, s);
      const facts = await skillFacts(this.ctx, dir, path.basename(dir));
      return {
        skill: s,
        source: { url: repo, commit, path: rel },
        diagnostics: relativeFiles(dir, facts.diagnostics),
        findings: relativeFiles(dir, scanSkillDir(dir).findings),
        agents: this.agentsView(facts.diagnostics),
        ...this.installState(c, s, this.installed()),
      };
    });
  }

  /**
   * Install one skill. `digest`: what the preview showed; when the catalog was refreshed since and
   * the skill's files changed, nothing is installed and the user is told (moved, gone or changed).
   */
  async install(input: {
    catalog: string;
    path: string;
    repo?: string | undefined;
    digest?: string | undefined;
    commit?: string | undefined;
    onConflict?: ConflictChoice | undefined;
  }): Promise<{ name: string | null; commit?: string; summary: ImportSummary }> {
    const c = this.d.catalog(input.catalog);
    const conflict = input.onConflict ? { onConflict: input.onConflict } : {};
    if (c.kind === 'search-api') {
      if (!input.repo) throw fail('not-found', 'discover.not-indexed', { id: c.id, path: input.path });
      const r = await getSources(this.ctx).add({ source: input.repo, skills: [path.posix.basename(input.path)], ...conflict });
      return { name: r.summary?.results[0]?.libraryName ?? null, commit: r.commit, summary: r.summary! };
    }
    return this.d.serial(c.id, async () => {
      const s = this.current(c, input);
      const src = getSources(this.ctx);
      if (c.kind !== 'well-known' && !s.path) {
        // A skill at the repository's root: its folder is the whole mirror (with .git), so fetch
        // exactly the indexed commit as `add` does.
        const r = await src.add({ source: s.repo ?? c.url, ...(c.ref && !s.repo ? { ref: c.ref } : {}), ...conflict }, s.commit);
        return { name: r.summary?.results[0]?.libraryName ?? null, commit: r.commit, summary: r.summary! };
      }
      // The library takes nothing from inside SkillDock's home but its staging area: the indexed
      // files are copied to a scratch folder first (links kept as links, judged by the import).
      const scratch = makeScratch(this.ctx.paths.home);
      const done = () => fs.rmSync(scratch, { recursive: true, force: true });
      let dest: string;
      try {
        dest = path.join(scratch, ...s.path.split('/').filter(Boolean));
        fs.cpSync(this.folder(c, s), dest, { recursive: true, verbatimSymlinks: true });
      } catch (err) {
        done();
        throw err;
      }
      if (c.kind === 'well-known') {
        // Through `add` as a well-known source (its provenance lets check and update work): the
        // "commit" is the digest of the files as indexed, which a later check compares.
        const url = this.sourceUrl(c, s);
        let commit: string;
        try {
          commit = wellKnownDigest(dest);
        } catch (err) {
          done();
          throw err;
        }
        const r = await src.addFrom(src.parse(url), { dir: scratch, commit, done }, { source: url, ...conflict });
        return { name: r.summary?.results[0]?.libraryName ?? null, commit: r.commit, summary: r.summary! };
      }
      const p = { ...src.parse(s.repo ?? c.url, s.repo ? undefined : c.ref), subpath: s.path };
      const mirror = this.d.mirrorDir(c, s.repo);
      const files = await treeFiles(mirror).catch(() => undefined);
      // addFrom removes the scratch folder whatever happens.
      const r = await src.addFrom(
        p,
        { dir: scratch, commit: s.commit ?? '', ...(files ? { files } : {}), done },
        { source: s.repo ?? c.url, ...conflict },
      );
      return { name: r.summary?.results[0]?.libraryName ?? null, commit: r.commit, summary: r.summary! };
    });
  }

  /** The index entry to install, refused when it is not what the preview showed. */
  private current(
    c: SkillCatalog,
    input: { path: string; repo?: string | undefined; digest?: string | undefined; commit?: string | undefined },
  ) {
    const idx = readIndex(this.ctx, c.id);
    const same = (x: IndexedSkillWithBody) => (x.repo ?? '') === (input.repo ?? '');
    const s = idx?.skills.find((x) => x.path === input.path && same(x));
    const name = path.posix.basename(input.path);
    if (!s) {
      const moved = idx?.skills.find((x) => same(x) && (path.posix.basename(x.path) === name || x.name === name));
      if (moved) throw fail('not-found', 'discover.moved', { id: c.id, skill: name, to: moved.path });
      throw fail('not-found', 'discover.gone', { id: c.id, skill: name });
    }
    if (input.digest && input.digest !== s.digest) {
      throw fail('conflict', 'discover.changed', {
        id: c.id,
        skill: s.name,
        from: (input.commit ?? '?').slice(0, 7),
        to: (s.commit ?? '?').slice(0, 7),
      });
    }
    return s;
  }
}

export function getCatalogSkills(ctx: ServiceContext): CatalogSkills {
  return ctx.use('discover-skills', () => new CatalogSkills(ctx, getDiscover(ctx)));
}
