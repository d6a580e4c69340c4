import path from 'node:path';
import type { Activation, AgentView, Catalog, CatalogChange, CatalogEntry, CatalogQuery, LintReport, Root } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { allAgents, loadRegistry, type AgentDef } from '../agents/registry.js';
import { getSettings } from '../settings/settings.js';
import { computeRoots, locate } from './roots.js';
import { RootState, type ChildRecord, type RootEnv } from './root-state.js';
import { applyPrecedence, defaultAnalyze, withRoot, type AnalyzeFn } from './entries.js';
import { compareNames } from './scan.js';
import type { RootWatcher } from './watch.js';
import { ScanPool, findWorkerScript, workerCount } from './analyze-pool.js';
import { ReadAhead, findReaderScript, readAheadWanted } from './read-ahead.js';
import { CatalogIndex, JsonTexts, entryName } from './persist.js';
import type { ByteSpan } from './index-file.js';

// The catalog: every skill under every root, with precedence, provenance and lint, kept in memory
// per root folder and re-read per skill when its signature (or the watcher) says it changed.

export interface CatalogOptions {
  /** The skill analyser (tests wrap the real one to count calls). */
  analyze?: AnalyzeFn;
  /** Skills analysed at once; I/O bound, so more than the core count pays. */
  concurrency?: number;
  debounceMs?: number;
  pollMs?: number;
  /** Keep the persistent index in SkillDock's home (default: on, unless a test's own analyser is given). */
  index?: boolean;
}

type Dirty = { full: boolean; relist: boolean; force: Set<string> };

export class CatalogService {
  private states = new Map<string, RootState>();
  private queue: Promise<unknown> = Promise.resolve();
  private generation = 0;
  private composed = new Map<string, Catalog>();
  private watcher: RootWatcher | null = null;
  private watchPending: { paths: Set<string>; full: Set<string> } | null = null;
  private watchQueries: CatalogQuery[] = [];
  private rootSettings = '';
  private readonly analyze: AnalyzeFn;
  private readonly concurrency: number;
  private readonly pool: ScanPool | null;
  private readonly reader: ReadAhead | null;
  private readonly index: CatalogIndex | null;
  private unsaved = new Set<string>();
  private saveTimer: NodeJS.Timeout | null = null;

  constructor(
    private ctx: ServiceContext,
    private options: CatalogOptions = {},
  ) {
    this.analyze = options.analyze ?? defaultAnalyze;
    this.concurrency = options.concurrency ?? 32;
    // A caller's own analyser (tests) always runs here; the default one may use worker threads.
    const script = options.analyze ? null : findWorkerScript();
    const workers = workerCount();
    this.pool = script && workers > 0 ? new ScanPool(script, workers) : null;
    const reader = !options.analyze && readAheadWanted(workers) ? findReaderScript() : null;
    this.reader = reader ? new ReadAhead(reader) : null;
    const useIndex = options.index ?? !options.analyze;
    this.index = useIndex ? new CatalogIndex(path.join(ctx.paths.home, 'cache', 'catalog')) : null;
    // Extra roots and custom agents change the set of roots: watch the new ones and tell the UI.
    const now = getSettings(ctx).get();
    this.rootSettings = JSON.stringify([now.extraRoots, now.customAgents]);
    const off = ctx.events.on((e) => {
      if (e.type !== 'settings-changed') return;
      const key = JSON.stringify([e.settings.extraRoots, e.settings.customAgents]);
      if (key === this.rootSettings) return;
      this.rootSettings = key;
      void this.serial(async () => {
        this.bump();
        this.ctx.events.emit({ type: 'catalog-changed', added: [], changed: [], removed: [], generation: this.generation });
      });
      if (this.watcher) for (const q of this.watchQueries) void this.watch(q).catch(() => undefined);
    });
    ctx.onClose(async () => {
      off();
      this.flushIndex();
      await this.unwatch();
      await this.pool?.close();
    });
  }

  /** Shipped agents plus the user's custom ones. */
  agents(): AgentDef[] {
    return allAgents(this.ctx.paths.resourcesDir, getSettings(this.ctx).get().customAgents);
  }

  roots(query: CatalogQuery = {}): Root[] {
    const { paths } = this.ctx;
    return computeRoots({
      home: paths.home,
      userHome: paths.userHome,
      resourcesDir: paths.resourcesDir,
      agents: this.agents(),
      project: query.project,
      extraRoots: getSettings(this.ctx).get().extraRoots,
      queryRoots: query.roots?.map((r) => path.resolve(r)),
    });
  }

  private env(): RootEnv {
    return {
      resourcesDir: this.ctx.paths.resourcesDir,
      analyze: this.analyze,
      concurrency: this.concurrency,
      registry: loadRegistry(this.ctx.paths.resourcesDir),
      ...(this.pool ? { pool: this.pool } : {}),
      ...(this.reader ? { reader: this.reader } : {}),
    };
  }

  /** State changes run one at a time, so a refresh never interleaves with a scan. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Scan roots never seen; re-check the unwatched ones (a watched root is kept fresh by events). */
  private async ensure(roots: Root[]): Promise<RootState[]> {
    const env = this.env();
    const watched = new Set(this.watcher?.paths() ?? []);
    const dirty = new Map<string, Dirty>();
    const states = await Promise.all(
      roots.map(async (root) => {
        let state = this.states.get(root.path);
        if (!state) {
          state = new RootState(root);
          await state.scan(env, this.index ?? undefined);
          this.states.set(root.path, state);
          this.bump();
        } else if (!watched.has(root.path)) {
          dirty.set(root.path, { full: true, relist: false, force: new Set() });
        }
        return state;
      }),
    );
    if (dirty.size) await this.apply(dirty, env);
    return states;
  }

  private bump(): void {
    this.generation++;
    this.composed.clear();
  }

  async list(query: CatalogQuery = {}): Promise<Catalog> {
    return this.serial(async () => {
      const { roots, states, key } = await this.prepare(query);
      const hit = this.composed.get(key);
      if (hit && hit.generation === this.generation) return hit;
      const { registry } = this.env();
      const entries: CatalogEntry[] = [];
      roots.forEach((root, i) => {
        for (const r of states[i].skills()) entries.push(withRoot(r.entry!, root));
      });
      const catalog: Catalog = {
        roots,
        entries: applyPrecedence(entries, registry),
        rootDiagnostics: states.flatMap((s) => s.diagnostics()),
        generation: this.generation,
      };
      if (this.composed.size > 8) this.composed.clear();
      this.composed.set(key, catalog);
      return catalog;
    });
  }

  /**
   * What `list` answers, as the pieces of its compact JSON text (joined: `JSON.stringify` of the
   * catalog, byte for byte). An entry that precedence leaves alone is its record's text: from the
   * index, a span of the file, never parsed into an object nor serialised again. Only the
   * entries sharing a name, or seen through another root id, are built here.
   */
  async listJson(query: CatalogQuery = {}): Promise<Array<string | Uint8Array | ByteSpan>> {
    return this.serial(async () => {
      const { roots, states, key } = await this.prepare(query);
      const hit = this.composed.get(key);
      if (hit && hit.generation === this.generation) return [JSON.stringify(hit)];
      // One pass over 10,000 records: flat arrays, no object per entry.
      const records: ChildRecord[] = [];
      const names: string[] = [];
      const rootOf: number[] = [];
      const uses = new Map<string, number>();
      roots.forEach((_root, i) => {
        for (const record of states[i].skills()) {
          const name = entryName(record)!;
          records.push(record);
          names.push(name);
          rootOf.push(i);
          uses.set(name, (uses.get(name) ?? 0) + 1);
        }
      });
      // Made with the state's root: another id or kind for the same folder means a new object (withRoot).
      const own = roots.map((root, i) => states[i].root.id === root.id && states[i].root.kind === root.kind);
      // Precedence only changes entries whose name is used twice: give it those (whole groups, in order).
      const built: number[] = [];
      for (let k = 0; k < records.length; k++) if (uses.get(names[k])! > 1 || !own[rootOf[k]]) built.push(k);
      const ruled = applyPrecedence(
        built.map((k) => withRoot(records[k].entry!, roots[rootOf[k]])),
        this.env().registry,
      );
      const entries = new JsonTexts();
      for (let k = 0, b = 0; k < records.length; k++) {
        if (built[b] === k) entries.add(JSON.stringify(ruled[b++]));
        else entries.add(records[k]);
      }
      const diagnostics = JSON.stringify(states.flatMap((s) => s.diagnostics()));
      return [
        `{"roots":${JSON.stringify(roots)},"entries":[`,
        ...entries.pieces(),
        `],"rootDiagnostics":${diagnostics},"generation":${this.generation}}`,
      ];
    });
  }

  /** The roots of a query, each scanned or checked, and the key of their composed catalog. */
  private async prepare(query: CatalogQuery): Promise<{ roots: Root[]; states: RootState[]; key: string }> {
    const roots = this.roots(query);
    const states = await this.ensure(roots);
    roots.forEach((root, i) => (root.exists = states[i].listing.exists));
    return { roots, states, key: JSON.stringify(roots.map((r) => [r.id, r.path])) };
  }

  /**
   * The winning entry for a name, else the entry with that id, else the winning entry whose folder
   * has that name (the identifier Claude Code uses). The catalog returned by `list` is shared:
   * treat it as read-only.
   */
  async get(name: string, query: CatalogQuery = {}): Promise<CatalogEntry> {
    const catalog = await this.list(query);
    const hit =
      catalog.entries.find((e) => e.name === name && !e.shadowedBy) ??
      catalog.entries.find((e) => e.id === name) ??
      catalog.entries.find((e) => e.dirName === name && !e.shadowedBy);
    if (!hit) throw fail('not-found', 'catalog.no-skill', { name });
    return hit;
  }

  /** Progressive disclosure: the body, the folder and its resource files, read fresh from disk. */
  async activate(name: string, query: CatalogQuery = {}): Promise<Activation> {
    const entry = await this.get(name, query);
    const { realPath, dir } = entry.provenance;
    const analysis = await this.analyze(realPath, {
      resourcesDir: this.ctx.paths.resourcesDir,
      dirName: entry.dirName,
      digest: true,
    });
    let current = entry;
    if (analysis.digest !== entry.digest) {
      // The folder changed since the last scan: bring the catalog up to date too.
      await this.refresh([dir]);
      current = await this.get(entry.id, query).catch(() => entry);
    }
    const files = analysis.files
      .map((f) => f.path.split(path.sep).join('/'))
      .filter((p) => p !== 'SKILL.md')
      .sort(compareNames);
    return { entry: current, body: analysis.body, dir, files };
  }

  /**
   * Re-read what changed. With `dirs`: each skill dir (or any path inside one) is re-read, each
   * root is re-listed and checked. Without: every known root is checked by signature.
   */
  async refresh(dirs?: string[]): Promise<CatalogChange> {
    return this.serial(() => this.refreshNow(dirs, true));
  }

  private async refreshNow(dirs: string[] | undefined, explicit: boolean): Promise<CatalogChange> {
    const dirty = new Map<string, Dirty>();
    const roots = [...this.states.values()].map((s) => s.root);
    if (!dirs) {
      for (const r of roots) dirty.set(r.path, { full: true, relist: false, force: new Set() });
    } else {
      for (const d of dirs) {
        const hit = locate(roots, d);
        if (!hit) continue;
        const mark = dirty.get(hit.root.path) ?? { full: false, relist: false, force: new Set<string>() };
        if (hit.child === null) {
          // An explicit root refresh checks every skill; a watcher event on the root only relists.
          mark.relist = true;
          if (explicit) mark.full = true;
        } else mark.force.add(hit.child);
        dirty.set(hit.root.path, mark);
      }
    }
    return this.apply(dirty, this.env());
  }

  private async apply(dirty: Map<string, Dirty>, env: RootEnv): Promise<CatalogChange> {
    const change: CatalogChange = { added: [], changed: [], removed: [], generation: this.generation };
    let any = false;
    for (const [rootPath, d] of dirty) {
      const state = this.states.get(rootPath);
      if (!state) continue;
      const changes = await state.update(env, { force: d.force, full: d.full, relist: d.relist });
      if (changes.size) this.markUnsaved(rootPath);
      for (const { before, after } of changes.values()) {
        any = true;
        collect(change, before, after);
      }
    }
    if (any) {
      this.bump();
      change.generation = this.generation;
      for (const k of ['added', 'changed', 'removed'] as const) change[k].sort(compareNames);
      this.ctx.events.emit({ type: 'catalog-changed', ...change });
    }
    return change;
  }

  /** Changed roots are written to the index a moment later (a burst of edits costs one write). */
  private markUnsaved(rootPath: string): void {
    if (!this.index) return;
    this.unsaved.add(rootPath);
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => this.flushIndex(), 1000);
    this.saveTimer.unref();
  }

  private flushIndex(): void {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    if (!this.index) return;
    const env = this.env();
    for (const p of this.unsaved) this.states.get(p)?.persist(env, this.index);
    this.unsaved.clear();
  }

  /** Keep the roots of `query` fresh from file events; resolves once the watcher is ready. */
  async watch(query: CatalogQuery = {}): Promise<string[]> {
    const roots = this.roots(query);
    if (!this.watchQueries.some((q) => JSON.stringify(q) === JSON.stringify(query))) this.watchQueries.push(query);
    await this.list(query);
    // The watcher (chokidar) loads with the first watch: a one-shot `list` never pays for it.
    const { RootWatcher } = await import('./watch.js');
    this.watcher ??= new RootWatcher((paths, full) => this.watchRefresh(paths, full), {
      debounceMs: this.options.debounceMs ?? 150,
      maxWaitMs: 1000,
      // A root that does not exist yet is looked for (one stat) this often: a folder made now
      // (~/.claude/skills by an export) is watched within a second (issue 23 item 5).
      pollMs: this.options.pollMs ?? 500,
    });
    await this.watcher.add(roots.map((r) => r.path));
    return this.watcher.paths();
  }

  /**
   * File events to a refresh. At most one refresh waits behind the running one: events that come
   * meanwhile join it, so a burst costs one rescan of what it touched, not one per flush.
   */
  private watchRefresh(paths: string[], full: string[]): void {
    const waiting = this.watchPending;
    if (waiting) {
      for (const p of paths) waiting.paths.add(p);
      for (const r of full) waiting.full.add(r);
      return;
    }
    const next = { paths: new Set(paths), full: new Set(full) };
    this.watchPending = next;
    void this.serial(async () => {
      this.watchPending = null;
      const full = [...next.full];
      const paths = [...next.paths].filter((p) => !full.some((r) => p === r || p.startsWith(r + path.sep)));
      if (full.length) await this.refreshNow(full, true);
      if (paths.length) await this.refreshNow(paths, false);
    });
  }

  async unwatch(): Promise<void> {
    this.watchQueries = [];
    const w = this.watcher;
    this.watcher = null;
    if (w) await w.close();
  }

  watching(): string[] {
    return this.watcher?.paths() ?? [];
  }

  async agentView(agentId: string, query: CatalogQuery = {}): Promise<AgentView> {
    const agents = this.agents();
    const agent = agents.find((a) => a.id === agentId);
    if (!agent) throw fail('not-found', 'catalog.unknown-agent', { agent: agentId, known: agents.map((a) => a.id) });
    const catalog = await this.list(query);
    const nested = catalog.roots.flatMap((root) =>
      [...(this.states.get(root.path)?.children.values() ?? [])].flatMap((r) =>
        r.state.kind === 'nested' ? r.state.nested.map((dir) => ({ dir, rootId: root.id })) : [],
      ),
    );
    // The listing models (and the SKILL.md parser they use) load with the first agent view.
    const [{ buildAgentView }, { readSkillFile }] = await Promise.all([import('./agent-view.js'), import('./listing.js')]);
    return buildAgentView(agent, catalog, nested, readSkillFile, this.ctx.paths.userHome);
  }

  async lint(paths: string[]): Promise<LintReport> {
    const { lintPaths } = await import('./lint-paths.js');
    return lintPaths(paths, this.env());
  }
}

function collect(change: CatalogChange, before?: ChildRecord, after?: ChildRecord): void {
  const b = before?.entry;
  const a = after?.entry;
  if (a && !b) change.added.push(a.id);
  else if (b && !a) change.removed.push(b.id);
  else if (a && b) {
    if (a.id !== b.id) {
      change.removed.push(b.id);
      change.added.push(a.id);
    } else change.changed.push(a.id);
  }
}

export function getCatalog(ctx: ServiceContext): CatalogService {
  return ctx.use('catalog', () => new CatalogService(ctx));
}
