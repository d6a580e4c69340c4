import fs from 'node:fs';
import path from 'node:path';
import {
  formatMessage,
  type SkillCatalog,
  type CatalogKind,
  type CatalogStatus,
  type IndexedSkillWithBody,
  type MessageRef,
  type RefreshResult,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail, SkillDockError } from '../errors.js';
import { getSources } from '../sources/service.js';
import { catalogDir, catalogsStore, markFailed, readIndex, writeIndex, type CatalogIndex } from './store.js';
import { marketplaceRepos, refreshMirror } from './git-index.js';
import { refreshWellKnown } from './well-known.js';
import { webUrlOk } from '../sources/http-text.js';
import { sha1Hex } from './hash.js';

// SkillCatalog subscriptions and their refresh. A refresh of one catalog never overlaps another refresh
// or an install from it (one queue per catalog in this process); a failed refresh keeps the index
// from before and records why. In a long-lived process (the app, `serve`) stale catalogs are
// refreshed in the background, at most once a day each.

const DAY_MS = 24 * 60 * 60 * 1000;
const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;

export function isFresh(index: CatalogIndex | null, now = Date.now()): boolean {
  return !!index && now - Date.parse(index.refreshedAt) < DAY_MS;
}

/** A readable id from a URL: `anthropics/skills` → `anthropics-skills`. */
export function idFromUrl(url: string): string {
  const s = url
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/^(www\.)?github\.com\//i, '')
    .replace(/\.git$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return s || 'catalog';
}

export class DiscoverService {
  private queues = new Map<string, Promise<unknown>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(readonly ctx: ServiceContext) {}

  catalogs(): SkillCatalog[] {
    return catalogsStore(this.ctx).read().catalogs;
  }

  catalog(id: string): SkillCatalog {
    const c = this.catalogs().find((x) => x.id === id);
    if (!c) throw fail('not-found', 'discover.no-catalog', { id });
    return c;
  }

  /** Run `fn` after every earlier operation on catalog `id` in this process has ended. */
  serial<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(id) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(id, settled);
    void settled.then(() => {
      if (this.queues.get(id) === settled) this.queues.delete(id);
    });
    return next;
  }

  list(): CatalogStatus[] {
    return this.catalogs().map((c) => {
      const idx = readIndex(this.ctx, c.id);
      const status: CatalogStatus = { ...c, skills: idx?.skills.length ?? 0 };
      if (idx?.commit) status.commit = idx.commit;
      if (idx?.refreshedAt) status.refreshedAt = idx.refreshedAt;
      if (idx?.error) status.error = { message: formatMessage(idx.error), msg: idx.error };
      return status;
    });
  }

  add(input: { kind?: CatalogKind | undefined; url: string; ref?: string | undefined; id?: string | undefined }): SkillCatalog {
    const kind = input.kind ?? 'git';
    const url = input.url.trim();
    if (kind === 'git' || kind === 'marketplace')
      getSources(this.ctx).parse(url, input.ref); // refuses what `add` would refuse
    else if (!webUrlOk(url)) throw fail('bad-request', 'discover.bad-url', { url, kind });
    const id = input.id ?? idFromUrl(url);
    if (!ID.test(id)) throw fail('bad-request', 'discover.bad-id', { id });
    const catalog: SkillCatalog = { id, kind, url, enabled: true, ...(input.ref ? { ref: input.ref } : {}) };
    catalogsStore(this.ctx).update((f) => {
      const same = f.catalogs.find((c) => c.id === id);
      if (same) throw fail('conflict', 'discover.exists', { id, url: same.url });
      const twin = f.catalogs.find((c) => c.url === url && c.kind === kind);
      if (twin) throw fail('conflict', 'discover.same-url', { id: twin.id, url });
      f.catalogs.push(catalog);
    });
    return catalog;
  }

  async remove(id: string): Promise<{ id: string }> {
    this.catalog(id);
    return this.serial(id, async () => {
      catalogsStore(this.ctx).update((f) => {
        f.catalogs = f.catalogs.filter((c) => c.id !== id);
      });
      // Only SkillDock's own folder for it; rmSync removes a link itself, never what it leads to.
      fs.rmSync(catalogDir(this.ctx, id), { recursive: true, force: true });
      return { id };
    });
  }

  setEnabled(id: string, enabled: boolean): SkillCatalog {
    let out: SkillCatalog | undefined;
    catalogsStore(this.ctx).update((f) => {
      const c = f.catalogs.find((x) => x.id === id);
      if (!c) throw fail('not-found', 'discover.no-catalog', { id });
      c.enabled = enabled;
      out = { ...c };
    });
    return out!;
  }

  async refresh(ids: string[] | undefined, force = false): Promise<RefreshResult[]> {
    const chosen = ids?.length ? ids.map((id) => this.catalog(id)) : this.catalogs().filter((c) => c.enabled);
    const out: RefreshResult[] = [];
    for (const c of chosen) out.push(await this.serial(c.id, () => this.refreshOne(c, force)));
    return out;
  }

  private result(
    c: SkillCatalog,
    status: RefreshResult['status'],
    key: string,
    counts: Partial<RefreshResult>,
    params = {},
  ): RefreshResult {
    const r = { skills: 0, added: 0, changed: 0, removed: 0, ...counts };
    const msg: MessageRef = {
      key,
      params: { id: c.id, skills: r.skills, added: r.added, changed: r.changed, removed: r.removed, ...params },
    };
    return { id: c.id, status, ...r, message: formatMessage(msg), msg };
  }

  private async refreshOne(c: SkillCatalog, force: boolean): Promise<RefreshResult> {
    const old = readIndex(this.ctx, c.id);
    const skills = old?.skills.length ?? 0;
    if (!c.enabled) return this.result(c, 'skipped', 'discover.off', { skills });
    if (c.kind === 'search-api') return this.result(c, 'skipped', 'discover.live', {});
    if (!force && isFresh(old) && !old?.error) return this.result(c, 'skipped', 'discover.fresh', { skills });
    try {
      const next = c.kind === 'well-known' ? await this.indexWellKnown(c) : await this.indexGit(c, old);
      writeIndex(this.ctx, next.index);
      const counts = { skills: next.index.skills.length, added: next.added, changed: next.changed, removed: next.removed };
      if (next.unchanged) return this.result(c, 'unchanged', 'discover.unchanged', counts);
      return this.result(c, 'refreshed', 'discover.refreshed', counts);
    } catch (err) {
      if (!(err instanceof SkillDockError)) throw err;
      const detail: MessageRef = err.msg ?? { key: 'common.internal', params: { reason: err.message } };
      markFailed(this.ctx, c, detail);
      return this.result(c, 'failed', 'discover.failed', { skills }, { detail });
    }
  }

  /** The mirror folder of a catalog's own repository, or of another one a marketplace names. */
  mirrorDir(c: SkillCatalog, repo?: string): string {
    const dir = catalogDir(this.ctx, c.id);
    return repo ? path.join(dir, 'ext', sha1Hex(repo).slice(0, 16)) : path.join(dir, 'repo');
  }

  private async indexGit(c: SkillCatalog, old: CatalogIndex | null) {
    const p = getSources(this.ctx).parse(c.url, c.ref);
    const prev = (old?.skills ?? []).filter((s) => !s.repo);
    const own = await refreshMirror(this.ctx, {
      catalog: c.id,
      given: c.url,
      url: p.url,
      ...(p.ref ? { ref: p.ref } : {}),
      repoDir: this.mirrorDir(c),
      old: old?.error && !old.commit ? [] : prev,
      ...(old?.commit ? { oldCommit: old.commit } : {}),
    });
    const skills: IndexedSkillWithBody[] = [...own.skills];
    const repos: Record<string, string> = {};
    let { added, changed, removed } = own;
    let unchanged = own.unchanged;
    if (c.kind === 'marketplace') {
      for (const given of marketplaceRepos(this.mirrorDir(c))) {
        const before = (old?.skills ?? []).filter((s) => s.repo === given);
        try {
          const q = getSources(this.ctx).parse(given);
          const r = await refreshMirror(this.ctx, {
            catalog: c.id,
            given,
            url: q.url,
            ...(q.ref ? { ref: q.ref } : {}),
            repoDir: this.mirrorDir(c, given),
            repo: given,
            old: before,
            ...(old?.repos?.[given] ? { oldCommit: old.repos[given] } : {}),
          });
          skills.push(...r.skills);
          repos[given] = r.commit;
          added += r.added;
          changed += r.changed;
          removed += r.removed;
          unchanged &&= r.unchanged;
        } catch (err) {
          if (!(err instanceof SkillDockError)) throw err;
          // One named repository that cannot be read keeps what it had; the others go on.
          skills.push(...before);
          if (old?.repos?.[given]) repos[given] = old.repos[given];
        }
      }
      const gone = (old?.skills ?? []).filter((s) => s.repo && !(s.repo in repos) && !skills.includes(s)).length;
      removed += gone;
      if (gone) unchanged = false;
    }
    const index: CatalogIndex = {
      version: 1,
      id: c.id,
      url: c.url,
      commit: own.commit,
      refreshedAt: new Date().toISOString(),
      ...(Object.keys(repos).length ? { repos } : {}),
      skills,
    };
    return { index, added, changed, removed, unchanged };
  }

  private async indexWellKnown(c: SkillCatalog) {
    const old = readIndex(this.ctx, c.id);
    const r = await refreshWellKnown(this.ctx, c, path.join(catalogDir(this.ctx, c.id), 'files'));
    const before = new Map((old?.skills ?? []).map((s) => [s.path, s.digest]));
    const added = r.skills.filter((s) => !before.has(s.path)).length;
    const changed = r.skills.filter((s) => before.has(s.path) && before.get(s.path) !== s.digest).length;
    const now = new Set(r.skills.map((s) => s.path));
    const removed = [...before.keys()].filter((p) => !now.has(p)).length;
    const at = { refreshedAt: new Date().toISOString(), wellKnown: r.dir };
    const index: CatalogIndex = { version: 1, id: c.id, url: c.url, ...at, skills: r.skills };
    if (r.skipped) index.error = { key: 'discover.entries-skipped', params: { id: c.id, count: r.skipped } };
    return { index, added, changed, removed, unchanged: added + changed + removed === 0 && !!old };
  }

  /** Long-lived processes: refresh what is older than a day, a minute after start and every hour after. */
  startBackground(firstMs = 60_000, everyMs = 60 * 60 * 1000): void {
    if (this.timer || process.env.SKILLDOCK_CATALOG_BACKGROUND === '0') return;
    const tick = () => {
      void this.refresh(undefined, false).catch(() => undefined);
      this.timer = setTimeout(tick, everyMs);
      this.timer.unref();
    };
    this.timer = setTimeout(tick, firstMs);
    this.timer.unref();
    this.ctx.onClose(() => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
    });
  }
}

export function getDiscover(ctx: ServiceContext): DiscoverService {
  return ctx.use('discover', () => new DiscoverService(ctx));
}
