import fs from 'node:fs';
import path from 'node:path';
import {
  formatMessage,
  type AddFromSourceOutput,
  type CheckResult,
  type ConflictChoice,
  type FoundSkill,
  type JournalChange,
  type MessageParams,
  type MessageRef,
  type SkillOrigin,
  type SourceInfo,
} from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail, SkillDockError } from '../errors.js';
import { expandHome } from '../agents/registry.js';
import { getLibrary, type AfterImport } from '../library/library-service.js';
import { skillFacts } from '../library/analyze.js';
import { libraryDir } from '../library/trash.js';
import { lstatOrNull, treeDigest } from '../library/tree.js';
import { isInside } from '../base/extpath.js';
import { parseSource, type ParsedSource } from './parse.js';
import { gitFailure, lsRemote, shallowCheckout, GitError } from './git.js';
import { DOWNLOAD_LIMITS, fetchArchive } from './download.js';
import { fetchWellKnownSkill } from './well-known-source.js';
import { discoverSkills } from './discover.js';
import { skillDirIn, sourceProblem } from './confine.js';
import { layoutRefusal, treeFiles } from './git-tree.js';
import { scanSkillDir } from '../security/scan.js';
import { NO_BASE, baseDir, readProvenance, storeBase, writeProvenance } from './store.js';
import { diffMaps, fileMap } from './files.js';
import { runUpdate, type UpdateInput } from './update.js';
import { exportAssistant, importAssistant } from './share.js';
import { mapLimit } from '../catalog/scan.js';
import { makeScratch } from './scratch.js';
import { startDeadline, type Deadline } from './limits.js';

const CHANGED = new Set(['imported', 'replaced', 'kept-both']);
/** Remote rounds at the same time during a check. */
const CHECK_PARALLEL = 20;

function info(p: ParsedSource): SourceInfo {
  return { given: p.given, kind: p.kind, url: p.url, subpath: p.subpath, ...(p.ref ? { ref: p.ref } : {}) };
}

export interface AddInput {
  source: string;
  ref?: string;
  skills?: string[];
  preview?: boolean;
  onConflict?: ConflictChoice;
  resolutions?: Record<string, ConflictChoice>;
}

/** A source's files in a scratch folder; `done` removes them. */
/** The `done` of checkouts made by `checkout()`: their folders are scratch, free to move away. */
const DISPOSABLE = new WeakSet<() => void>();

export interface Checkout {
  dir: string;
  commit: string;
  /** A git checkout's file names as git records them (for layoutRefusal); absent for an archive. */
  files?: string[];
  done: () => void;
}

/**
 * A local path that is a plain folder (no `.git`, not a bare repository) is refused with what to do
 * instead: git only said "does not appear to be a git repository … make sure you have the correct
 * access rights", which read like a permissions problem (issue 23 item 11). The window offers to
 * import the folder; the CLI's message names `skilldock import`.
 */
function refusePlainFolder(p: ParsedSource): void {
  if (!p.url.startsWith('file://')) return;
  const dir = p.url.slice('file://'.length);
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch {
    return; // missing: git says so
  }
  if (!st.isDirectory()) return;
  const has = (rel: string) => fs.existsSync(path.join(dir, rel));
  if (has('.git') || (has('HEAD') && has('objects') && has('refs'))) return;
  throw fail('bad-request', 'sources.local-folder', { source: p.given, path: dir });
}

export class SourcesService {
  constructor(private ctx: ServiceContext) {}

  /** A private scratch folder under `<home>/staging/sources/`, removed by the caller. */
  private scratch(): string {
    return makeScratch(this.ctx.paths.home);
  }

  parse(source: string, ref?: string): ParsedSource {
    return parseSource(source, {
      ...(ref ? { ref } : {}),
      resolveLocal: (p) => path.resolve(expandHome(p, this.ctx.paths.userHome)),
    });
  }

  /** See sourceProblem: a source read back from a file, checked as if the user had typed it. */
  recordProblem(url: string, refs: Array<string | undefined>, rel: string): MessageRef | null {
    return sourceProblem((u) => this.parse(u), url, refs, rel);
  }

  /** Check out the source into a scratch folder; always removed by `done`. `signal` stops it (a deadline). */
  async checkout(p: ParsedSource, ref?: string, signal?: AbortSignal): Promise<Checkout> {
    const scratch = this.scratch();
    const done = () => fs.rmSync(scratch, { recursive: true, force: true });
    DISPOSABLE.add(done);
    if (p.kind !== 'git') {
      // An archive or a well-known skill has one version, what the URL serves now: `ref` cannot
      // choose another.
      try {
        if (p.kind === 'well-known') return { ...(await fetchWellKnownSkill(p, scratch, signal)), done };
        return { ...(await fetchArchive(p, scratch, DOWNLOAD_LIMITS, signal)), done };
      } catch (err) {
        done();
        throw err;
      }
    }
    const dir = path.join(scratch, 'repo');
    try {
      refusePlainFolder(p);
      const commit = await shallowCheckout(p.url, dir, ref ?? p.ref, { source: p.given, ...(signal ? { signal } : {}) });
      return { dir, commit, files: await treeFiles(dir), done };
    } catch (err) {
      done();
      throw gitFailure(err, p.given);
    }
  }

  async add(input: AddInput, commit?: string): Promise<AddFromSourceOutput> {
    const p = this.parse(input.source, input.ref);
    // `commit`: fetch exactly that commit (an imported assistant) while recording the ref followed.
    return this.addFrom(p, await this.checkout(p, commit), input);
  }

  /** Add from a source already checked out (removed at the end, whatever happens). */
  async addFrom(p: ParsedSource, co: Checkout, input: AddInput): Promise<AddFromSourceOutput> {
    try {
      const { paths, linksOut } = discoverSkills(co.dir, p.subpath);
      if (!paths.length && linksOut.length) throw fail('refused', 'sources.links-out', { source: p.given, path: linksOut });
      if (!paths.length) {
        throw fail('not-found', p.subpath ? 'sources.no-skill-at' : 'sources.no-skills', { source: p.given, path: p.subpath });
      }
      const skipped = linksOut.map((rel) => {
        const msg: MessageRef = { key: 'sources.link-out-skipped', params: { source: p.given, path: rel } };
        return { path: rel, message: formatMessage(msg), msg };
      });
      for (const rel of paths) {
        const refused = co.files && layoutRefusal(co.files, rel, p.given);
        if (refused) throw refused;
      }
      const found: FoundSkill[] = [];
      for (const rel of paths) {
        const dir = path.join(co.dir, ...rel.split('/'));
        const f = await skillFacts(this.ctx, dir, path.basename(dir));
        const scan = scanSkillDir(dir);
        const level = (l: string) => scan.findings.filter((x) => x.level === l).length;
        found.push({
          path: rel,
          name: f.name,
          ...(f.description ? { description: f.description } : {}),
          digest: f.digest,
          errors: f.diagnostics.filter((d) => d.severity === 'error').length,
          warnings: f.diagnostics.filter((d) => d.severity === 'warning').length,
          diagnostics: f.diagnostics,
          security: { high: level('high'), medium: level('medium'), low: level('low'), executable: scan.hasExecutableSurface },
        });
      }
      const base = { source: info(p), commit: co.commit, found, ...(skipped.length ? { skipped } : {}) };
      if (input.preview) return base;
      let chosen = found;
      if (input.skills?.length) {
        const want = new Set(input.skills);
        chosen = found.filter((f) => (f.name && want.has(f.name)) || want.has(path.posix.basename(f.path || '.')));
        const missing = input.skills.filter((n) => !chosen.some((f) => f.name === n || path.posix.basename(f.path) === n));
        if (missing.length) throw fail('not-found', 'sources.skill-not-in-source', { source: p.given, skill: missing });
      }
      const byDir = new Map(chosen.map((f) => [path.join(co.dir, ...f.path.split('/').filter(Boolean)), f]));
      // A checkout this service made and will remove gives its folders to the base store by a
      // rename instead of a copy; a skill holding or held by another chosen one is copied.
      const dirs = [...byDir.keys()];
      const movable = (d: string) => DISPOSABLE.has(co.done) && !dirs.some((o) => o !== d && (isInside(o, d) || isInside(d, o)));
      // The installed upstream files are kept as the base of later updates, in the import's own
      // journal entry: undo of this add removes the copies it made (not those others made first).
      const storeBases: AfterImport = (results, wal) => {
        const made: JournalChange[] = [];
        for (const r of results) {
          const f = byDir.get(r.source);
          if (!f || !CHANGED.has(r.status) || !r.libraryName) continue;
          const change = storeBase(this.ctx, r.source, f.digest, wal, movable(r.source));
          if (change) made.push(change);
        }
        return made;
      };
      const summary = await getLibrary(this.ctx).importPaths({
        after: storeBases,
        paths: [...byDir.keys()],
        ...(input.onConflict ? { onConflict: input.onConflict } : {}),
        ...(input.resolutions ? { resolutions: input.resolutions } : {}),
      });
      const prov: Record<string, SkillOrigin> = {};
      const time = new Date().toISOString();
      for (const r of summary.results) {
        const f = byDir.get(r.source);
        if (f) r.source = f.path ? `${p.given} ${f.path}` : p.given; // the user's words, not our scratch path
        if (!f || !CHANGED.has(r.status) || !r.libraryName) continue;
        prov[r.libraryName] = {
          source: info(p),
          commit: co.commit,
          path: f.path,
          upstreamDigest: f.digest,
          installedDigest: treeDigest(path.join(libraryDir(this.ctx), r.libraryName)),
          time,
        };
      }
      writeProvenance(this.ctx, prov);
      return { ...base, summary };
    } finally {
      co.done();
    }
  }

  listProvenance(): Record<string, SkillOrigin> {
    return readProvenance(this.ctx, libraryDir(this.ctx));
  }

  /** Read-only: one `git ls-remote` per source (in parallel, bounded), a fetch only where it moved. */
  async check(names?: string[]): Promise<{ results: CheckResult[]; updates: number }> {
    const prov = readProvenance(this.ctx, libraryDir(this.ctx));
    // Without names: the skills still in the library (a deleted skill's record is left for undo).
    const wanted = names?.length
      ? names
      : Object.keys(prov)
          .filter((n) => lstatOrNull(path.join(libraryDir(this.ctx), n)))
          .sort();
    for (const n of wanted) if (!prov[n]) throw fail('not-found', 'sources.no-provenance', { skill: n });
    const bySource = new Map<string, string[]>();
    for (const n of wanted) {
      const k = prov[n]!.source.url;
      bySource.set(k, [...(bySource.get(k) ?? []), n]);
    }
    const groups = [...bySource];
    // One deadline for the whole check: 500 silent sources end together, not one round after another.
    const deadline = startDeadline();
    let perGroup: CheckResult[][];
    try {
      perGroup = await mapLimit(groups, CHECK_PARALLEL, async ([url, skills]) => {
        const src = prov[skills[0]!]!.source;
        if (src.kind !== 'git') return this.checkArchiveGroup(skills, prov, deadline);
        let refs: Map<string, string> | Error;
        try {
          this.parse(url); // a record edited on disk: its URL is checked as if the user had typed it
          refs = await lsRemote(url, undefined, deadline.signal);
        } catch (err) {
          if (!(err instanceof GitError) && !(err instanceof SkillDockError)) throw err;
          refs = deadline.explain(err, src.given) as Error;
        }
        return this.checkGroup(refs, skills, prov, deadline);
      });
    } finally {
      deadline.done();
    }
    const results = perGroup.flat().sort((a, b) => a.skill.localeCompare(b.skill));
    return { results, updates: results.filter((r) => r.status === 'update-available').length };
  }

  private localChanges(name: string, p: SkillOrigin): boolean | null {
    const dir = path.join(libraryDir(this.ctx), name);
    if (!lstatOrNull(dir)) return null;
    try {
      return treeDigest(dir) !== p.installedDigest;
    } catch {
      return null;
    }
  }

  /** An archive or a well-known skill: no refs to list, so download it once (unless every skill is pinned) and compare. */
  private async checkArchiveGroup(skills: string[], prov: Record<string, SkillOrigin>, deadline: Deadline): Promise<CheckResult[]> {
    if (skills.every((n) => prov[n]!.pinned)) return this.checkGroup(new Map(), skills, prov, deadline);
    let co: Checkout | undefined;
    let refs: Map<string, string> | Error;
    try {
      co = await this.checkout(this.parse(prov[skills[0]!]!.source.url), undefined, deadline.signal);
      refs = new Map([['HEAD', co.commit]]);
    } catch (err) {
      if (!(err instanceof Error)) throw err;
      refs = deadline.explain(err, prov[skills[0]!]!.source.given) as Error;
    }
    try {
      return await this.checkGroup(refs, skills, prov, deadline, co);
    } finally {
      co?.done();
    }
  }

  private async checkGroup(
    refs: Map<string, string> | Error,
    skills: string[],
    prov: Record<string, SkillOrigin>,
    deadline: Deadline,
    prefetched?: Checkout,
  ): Promise<CheckResult[]> {
    const out: CheckResult[] = [];
    const needFetch = new Map<string, string[]>(); // target commit → skills
    for (const name of skills) {
      const settled = this.checkByRefs(name, prov[name]!, refs);
      if (typeof settled === 'string') needFetch.set(settled, [...(needFetch.get(settled) ?? []), name]);
      else out.push(settled);
    }
    for (const [target, names] of needFetch) out.push(...(await this.checkAtCommit(target, names, prov, deadline, prefetched)));
    return out;
  }

  /** What the library and the source's refs alone tell about one skill: its result, or the commit to fetch and compare with. */
  private checkByRefs(name: string, p: SkillOrigin, refs: Map<string, string> | Error): CheckResult | string {
    const common = { skill: name, source: p.source.given, fromCommit: p.commit };
    const say = (status: CheckResult['status'], key: string, params: MessageParams, extra: Partial<CheckResult> = {}): CheckResult => {
      const msg: MessageRef = { key, params: { skill: name, source: p.source.given, ...params } };
      return { ...common, status, localChanges: extra.localChanges ?? false, ...extra, message: formatMessage(msg), msg };
    };
    const local = this.localChanges(name, p);
    if (local === null) return say('missing', 'sources.check.missing', {});
    const bad = this.recordProblem(p.source.url, [p.source.ref, p.pinned], p.path);
    if (bad) return say('unreachable', 'sources.check.unreachable', { detail: bad });
    if (p.source.kind !== 'git' && p.pinned)
      return say('pinned', 'sources.check.pinned', { ref: p.pinned.slice(0, 12) }, { localChanges: local });
    if (refs instanceof Error) {
      // A git failure in the user's words; a download refusal: its own words, in the user's language in the window.
      const e = (refs instanceof GitError ? gitFailure(refs, p.source.given, name) : refs) as Error & { msg?: MessageRef };
      return say('unreachable', 'sources.check.unreachable', { detail: e.msg ?? e.message });
    }
    const ref = p.source.kind !== 'git' ? undefined : (p.pinned ?? p.source.ref);
    const target = !ref
      ? refs.get('HEAD')
      : (refs.get(`refs/tags/${ref}^{}`) ??
        refs.get(`refs/tags/${ref}`) ??
        refs.get(`refs/heads/${ref}`) ??
        refs.get(ref) ??
        (/^[0-9a-f]{40}$/.test(ref) ? ref : undefined));
    if (!target) return say('unreachable', 'sources.check.ref-gone', { ref: ref ?? 'HEAD' });
    if (target !== p.commit) return target;
    if (p.pinned) return say('pinned', 'sources.check.pinned', { ref: p.pinned }, { localChanges: local });
    if (local) return say('changed-locally', 'sources.check.changed-locally', {}, { localChanges: true });
    return say('up-to-date', 'sources.check.up-to-date', {});
  }

  /** The skills whose source moved to `target`: one checkout of it (or the one already made), each skill compared with it. */
  private async checkAtCommit(
    target: string,
    names: string[],
    prov: Record<string, SkillOrigin>,
    deadline: Deadline,
    prefetched?: Checkout,
  ): Promise<CheckResult[]> {
    const first = prov[names[0]!]!;
    let co: Checkout;
    try {
      co = prefetched?.commit === target ? prefetched : await this.checkout(this.parse(first.source.url), target, deadline.signal);
    } catch (err) {
      return names.map((name) => {
        const p = prov[name]!;
        const e = deadline.explain(err, p.source.given) as Error & { msg?: MessageRef };
        const msg: MessageRef = {
          key: 'sources.check.unreachable',
          params: { skill: name, source: p.source.given, detail: e.msg ?? e.message },
        };
        return {
          skill: name,
          source: p.source.given,
          fromCommit: p.commit,
          status: 'unreachable',
          localChanges: false,
          message: formatMessage(msg),
          msg,
        };
      });
    }
    try {
      const out: CheckResult[] = [];
      for (const name of names) out.push(await this.compareWithUpstream(co, name, prov[name]!));
      return out;
    } finally {
      if (co !== prefetched) co.done();
    }
  }

  /** One skill against its source at a new commit: removed or moved upstream, no file changed, or an update. */
  private async compareWithUpstream(co: Checkout, name: string, p: SkillOrigin): Promise<CheckResult> {
    const local = this.localChanges(name, p) ?? false;
    const common = { skill: name, source: p.source.given, fromCommit: p.commit, toCommit: co.commit, localChanges: local };
    let up: string;
    try {
      up = skillDirIn(co.dir, p.path, p.source.given);
    } catch (err) {
      const e = err as SkillDockError;
      const msg: MessageRef = {
        key: 'sources.check.unreachable',
        params: { skill: name, source: p.source.given, detail: e.msg ?? e.message },
      };
      return { ...common, status: 'unreachable', message: formatMessage(msg), msg };
    }
    if (!fs.existsSync(path.join(up, 'SKILL.md'))) {
      const facts = discoverSkills(co.dir, '').paths;
      let renamed = '';
      for (const rel of facts) {
        const f = await skillFacts(this.ctx, path.join(co.dir, ...rel.split('/')), path.posix.basename(rel));
        if (f.name === name || path.posix.basename(rel) === path.posix.basename(p.path)) renamed = rel;
      }
      const msg: MessageRef = renamed
        ? { key: 'sources.check.moved', params: { skill: name, source: p.source.given, path: p.path, to: renamed } }
        : { key: 'sources.check.removed', params: { skill: name, source: p.source.given, path: p.path } };
      return { ...common, status: 'upstream-removed', message: formatMessage(msg), msg };
    }
    // Adopted from a lock file with local edits: no base, so compare with the library copy.
    const from = p.upstreamDigest === NO_BASE ? path.join(libraryDir(this.ctx), name) : baseDir(this.ctx, p.upstreamDigest);
    const d = diffMaps(fileMap(from), fileMap(up));
    if (!d.added.length && !d.changed.length && !d.removed.length) {
      const msg: MessageRef = {
        key: local ? 'sources.check.changed-locally' : 'sources.check.up-to-date',
        params: { skill: name, source: p.source.given },
      };
      return { ...common, status: local ? 'changed-locally' : 'up-to-date', message: formatMessage(msg), msg };
    }
    const msg: MessageRef = {
      key: 'sources.check.update',
      params: {
        skill: name,
        source: p.source.given,
        from: p.commit.slice(0, 7),
        to: co.commit.slice(0, 7),
        added: d.added.length,
        changed: d.changed.length,
        removed: d.removed.length,
      },
    };
    return { ...common, status: 'update-available', ...d, message: formatMessage(msg), msg };
  }

  exportAssistant(assistant: string, out?: string) {
    return exportAssistant(this.ctx, assistant, out);
  }

  importAssistant(input: Parameters<typeof importAssistant>[2]) {
    return importAssistant(this.ctx, this, input);
  }

  update(input: UpdateInput) {
    return runUpdate(this.ctx, this, input);
  }

  pin(name: string, ref?: string): { name: string; pinned: string } {
    const prov = readProvenance(this.ctx, libraryDir(this.ctx));
    const p = prov[name];
    if (!p) throw fail('not-found', 'sources.no-provenance', { skill: name });
    if (ref && p.source.kind !== 'git') throw fail('bad-request', 'sources.archive-pin-ref', { skill: name, source: p.source.given });
    const pinned = ref ?? p.commit;
    if (ref) this.parse(p.source.url, ref); // validates the ref's shape
    writeProvenance(this.ctx, { [name]: { ...p, pinned } });
    return { name, pinned };
  }

  unpin(name: string): { name: string } {
    const prov = readProvenance(this.ctx, libraryDir(this.ctx));
    const p = prov[name];
    if (!p) throw fail('not-found', 'sources.no-provenance', { skill: name });
    const { pinned: _drop, ...rest } = p;
    void _drop;
    writeProvenance(this.ctx, { [name]: rest });
    return { name };
  }
}

export function getSources(ctx: ServiceContext): SourcesService {
  return ctx.use('sources', () => new SourcesService(ctx));
}
