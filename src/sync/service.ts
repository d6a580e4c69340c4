import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../service-context.js';
import type { SyncResult, SyncStatus } from '../contract/index.js';
import { fail } from '../errors.js';
import { FileLock } from '../store/file-lock.js';
import { libraryLock } from '../library/journal.js';
import { recoverLocked } from '../library/recover.js';
import { GitError, gitFailure } from '../sources/git.js';
import { SyncRepo, type FlatTree } from './repo.js';
import { MARKER, hostilePath, localTree, unitOf } from './layout.js';
import { mergeTrees, type Conflict, type Entry } from './merge-trees.js';
import { applyTree, type Applied } from './apply.js';

// `skilldock sync`: commit this machine's changes (one commit, a message saying what changed),
// fetch, merge (merge-trees.ts), bring the merge into the library (apply.ts), push. Never forced:
// a remote that moved meanwhile is fetched and merged again (bounded), a remote whose history does
// not contain ours (rewritten, or another repository) is refused with a way out (`--adopt`).
// One sync at a time per home (a file lock); a crash leaves either the library as it was (the
// import's write-ahead log rolls it back) or as merged, and the next sync carries on from there.

interface SyncState {
  /** Choices for conflicting units: `mine` or `theirs`. */
  choices: Record<string, 'mine' | 'theirs'>;
  conflicts: Conflict[];
}

const ROUNDS = 3;

export function syncDir(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'sync');
}

function stateFile(ctx: ServiceContext): string {
  return path.join(syncDir(ctx), 'state.json');
}

function readState(ctx: ServiceContext): SyncState {
  try {
    const s = JSON.parse(fs.readFileSync(stateFile(ctx), 'utf8')) as Partial<SyncState>;
    return { choices: s.choices ?? {}, conflicts: s.conflicts ?? [] };
  } catch {
    return { choices: {}, conflicts: [] };
  }
}

function writeState(ctx: ServiceContext, s: SyncState): void {
  const tmp = `${stateFile(ctx)}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(s, null, 2));
  fs.renameSync(tmp, stateFile(ctx));
}

function lock(ctx: ServiceContext): FileLock {
  return new FileLock(path.join(syncDir(ctx), 'sync.lock'), { timeoutMs: 120_000, staleMs: 15 * 60_000 });
}

/** What changed between two trees, by unit, in a commit message a person reads. */
function describe(before: FlatTree, after: FlatTree): string {
  const changed = new Set<string>();
  for (const p of new Set([...before.keys(), ...after.keys()])) if (before.get(p)?.oid !== after.get(p)?.oid) changed.add(unitOf(p));
  const units = (t: FlatTree) => new Set([...t.keys()].map(unitOf));
  const [b, a] = [units(before), units(after)];
  const word = (u: string) => (u.startsWith('skill:') ? `skill ${u.slice(6)}` : u.replace(/\.json$/, ''));
  const list = [...changed].sort();
  const added = list.filter((u) => !b.has(u)).map(word);
  const removed = list.filter((u) => !a.has(u)).map(word);
  const edited = list.filter((u) => b.has(u) && a.has(u)).map(word);
  const parts = [
    added.length ? `added ${added.join(', ')}` : '',
    edited.length ? `changed ${edited.join(', ')}` : '',
    removed.length ? `removed ${removed.join(', ')}` : '',
  ].filter(Boolean);
  return `SkillDock sync: ${parts.join('; ') || 'no change'}`;
}

/** Object ids of files by their stat, kept between syncs: an unchanged file is not read again (as git's index does). */
type HashCache = Record<string, [number, number, number, string]>;

async function hashLocal(repo: SyncRepo, ctx: ServiceContext): Promise<{ flat: FlatTree; skipped: string[] }> {
  const { wanted, skipped } = localTree(ctx);
  const flat: FlatTree = new Map();
  const cacheFile = path.join(syncDir(ctx), 'hash-cache.json');
  let cache: HashCache = {};
  try {
    cache = JSON.parse(fs.readFileSync(cacheFile, 'utf8')) as HashCache;
  } catch {
    // none yet, or damaged: every file is hashed
  }
  const next: HashCache = {};
  const todo: Array<[string, string, fs.Stats]> = [];
  for (const [p, w] of wanted) {
    if (!('file' in w)) continue;
    const st = fs.statSync(w.file);
    const mode = (st.mode & 0o111) !== 0 ? '100755' : '100644';
    const c = cache[w.file];
    // a file changed within the last 2 s could change again in the same mtime tick: hashed anyway
    if (c && c[0] === st.size && c[1] === st.mtimeMs && c[2] === st.ino && Date.now() - st.mtimeMs > 2000) {
      flat.set(p, { mode, oid: c[3], size: st.size });
      next[w.file] = c;
    } else todo.push([p, w.file, st]);
  }
  const oids = await repo.hashFiles(todo.map(([, f]) => f));
  todo.forEach(([p, file, st], i) => {
    flat.set(p, { mode: (st.mode & 0o111) !== 0 ? '100755' : '100644', oid: oids[i]!, size: st.size });
    next[file] = [st.size, st.mtimeMs, st.ino, oids[i]!];
  });
  const texts = [...wanted].filter(([, w]) => 'text' in w) as Array<[string, { text: string }]>;
  const textOids = await repo.hashTexts(texts.map(([, w]) => w.text));
  texts.forEach(([p], i) => flat.set(p, { mode: '100644', oid: textOids[i]!, size: 0 }));
  if (todo.length) {
    fs.mkdirSync(syncDir(ctx), { recursive: true });
    fs.writeFileSync(`${cacheFile}.tmp`, JSON.stringify(next));
    fs.renameSync(`${cacheFile}.tmp`, cacheFile);
  }
  return { flat, skipped };
}

const sameTree = (a: FlatTree, b: FlatTree) =>
  a.size === b.size && [...a].every(([p, e]) => b.get(p)?.oid === e.oid && b.get(p)?.mode === e.mode);

async function git<T>(url: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof GitError) throw gitFailure(err, url);
    throw err;
  }
}

/** Refuse a remote tree that is not SkillDock's or that holds anything hostile, before any of it is used. */
function checkRemote(url: string, t: FlatTree): void {
  if (!t.has(MARKER)) throw fail('refused', 'sync.not-skilldock', { url });
  for (const [p, e] of t) {
    const why = hostilePath(p, e.mode, e.size);
    if (why) throw fail('refused', 'sync.hostile', { url, path: p.slice(0, 200), reason: why });
  }
}

export class SyncService {
  readonly repo: SyncRepo;
  constructor(private readonly ctx: ServiceContext) {
    this.repo = new SyncRepo(syncDir(ctx));
  }

  async setup(url: string, opts: { adopt?: boolean } = {}): Promise<SyncResult> {
    if (this.repo.exists()) throw fail('refused', 'sync.already-set-up', { url: await this.repo.url() });
    await this.repo.init(url);
    try {
      return await this.sync({ adopt: !!opts.adopt });
    } catch (err) {
      // a setup that could not reach or use the remote leaves nothing set up
      fs.rmSync(syncDir(this.ctx), { recursive: true, force: true });
      throw err;
    }
  }

  async status(): Promise<SyncStatus> {
    if (!this.repo.exists()) return { url: null, head: null, remote: null, changed: false, conflicts: [] };
    const head = await this.repo.rev('refs/heads/main');
    const { flat } = await hashLocal(this.repo, this.ctx);
    const headFlat = await this.repo.flat(head);
    return {
      url: await this.repo.url(),
      head,
      remote: await this.repo.rev('refs/remotes/origin/main'),
      changed: !sameTree(flat, headFlat),
      conflicts: readState(this.ctx).conflicts,
    };
  }

  /** Settle a conflicting unit (`skill:<name>`, `assistants/<id>.json`...) by one side; the next sync uses it. */
  resolve(unit: string, take: 'mine' | 'theirs'): void {
    const s = readState(this.ctx);
    if (!s.conflicts.some((c) => c.unit === unit)) throw fail('not-found', 'sync.no-conflict', { unit });
    s.choices[unit] = take;
    writeState(this.ctx, s);
  }

  async sync(opts: { adopt?: boolean } = {}): Promise<SyncResult> {
    if (!this.repo.exists()) throw fail('refused', 'sync.not-set-up');
    fs.mkdirSync(syncDir(this.ctx), { recursive: true });
    return lock(this.ctx).runAsync(async () => {
      const url = await this.repo.url();
      let result: SyncResult | null = null;
      for (let round = 0; round < ROUNDS && !result; round++) result = await this.round(url, !!opts.adopt);
      if (!result) throw fail('io', 'sync.remote-busy', { url });
      return result;
    });
  }

  /** One commit-fetch-merge-push round; null when the push lost a race with another machine. */
  private async round(url: string, adopt: boolean): Promise<SyncResult | null> {
    const repo = this.repo;
    // An operation a crash interrupted (this sync's own import, or any other) is settled before the
    // library is read: a half-placed skill read as it is would be sent, or reverted, as a change.
    await libraryLock(this.ctx).runAsync(() => recoverLocked(this.ctx));
    let head = await repo.rev('refs/heads/main');
    const headFlat = await repo.flat(head);
    const { flat: local, skipped } = await hashLocal(repo, this.ctx);
    let committed: string | null = null;
    let message: string | null = null;
    // A machine's first sync does not commit first: what it has is merged into what the remote has.
    if (head && !sameTree(local, headFlat)) {
      message = describe(headFlat, local);
      head = await repo.commitTree(await repo.writeTree(local), head ? [head] : [], message);
      await repo.setHead(head);
      committed = head;
    }
    const fetched = await git(url, () => repo.fetch(url));
    // no branch there: an empty repository is ours to fill; anything else is someone else's
    if (!fetched && (await git(url, () => repo.remoteRefs(url))).length) throw fail('refused', 'sync.not-skilldock', { url });
    const theirs = fetched ? await repo.rev('refs/remotes/origin/main') : null;
    const done = (status: SyncResult['status'], applied: Applied | null = null, conflicts: Conflict[] = []): SyncResult => ({
      status,
      committed,
      message,
      applied,
      conflicts,
      skipped,
    });
    if (!head && !theirs) {
      // the first sync to an empty repository: this machine's library is the first commit
      message = describe(headFlat, local);
      head = committed = await repo.commitTree(await repo.writeTree(local), [], message);
      await repo.setHead(head);
    }
    if (!theirs || (head && (await repo.isAncestor(theirs, head)))) {
      if (theirs === head) return done('up-to-date');
      if (!(await this.pushed(url, head!))) return null;
      return done('pushed');
    }
    const theirsFlat = await repo.flat(theirs);
    checkRemote(url, theirsFlat);
    const base = head ? await repo.mergeBase(head, theirs) : null;
    if (head && !base && !adopt) throw fail('refused', 'sync.unrelated', { url });
    const baseFlat = await repo.flat(base);
    // A new machine takes the remote's settings (its own are only the defaults it started with).
    if (!head && local.has('settings.json')) baseFlat.set('settings.json', local.get('settings.json')!);
    const m = await mergeTrees(baseFlat, local, theirsFlat, (o) => repo.blobs(o));
    const state = readState(this.ctx);
    const open = this.settle(m, state, local, theirsFlat);
    if (open.length) {
      writeState(this.ctx, { choices: state.choices, conflicts: open });
      return done('conflicts', null, open);
    }
    const merged: FlatTree = new Map();
    for (const [p, e] of m.tree) merged.set(p, 'text' in e ? { mode: '100644', oid: await repo.hashText(e.text), size: 0 } : (e as Entry));
    // nothing of ours to add: the remote's commit itself (a fast-forward, no merge commit to push)
    const forward = sameTree(merged, theirsFlat);
    const parents = head ? [head, theirs] : [theirs];
    const commit = forward
      ? theirs
      : await repo.commitTree(await repo.writeTree(merged), parents, describe(local, merged).replace('sync:', 'sync merge:'));
    const applied = await applyTree(this.ctx, local, merged, (o) => repo.blobs(o));
    await repo.setHead(commit);
    writeState(this.ctx, { choices: {}, conflicts: [] });
    if (!forward && !(await this.pushed(url, commit))) return null;
    return done('merged', applied);
  }

  /** Conflicts the user already settled take the chosen side; the rest stay open. */
  private settle(m: Awaited<ReturnType<typeof mergeTrees>>, state: SyncState, ours: FlatTree, theirs: FlatTree): Conflict[] {
    const open: Conflict[] = [];
    for (const c of m.conflicts) {
      const take = state.choices[c.unit];
      if (!take) {
        open.push(c);
        continue;
      }
      const side = take === 'mine' ? ours : theirs;
      for (const p of [...m.tree.keys()]) if (unitOf(p) === c.unit) m.tree.delete(p);
      for (const [p, e] of side) if (unitOf(p) === c.unit) m.tree.set(p, e);
    }
    return open;
  }

  /** Push; false when the remote moved meanwhile (another machine pushed first): merge again. */
  private async pushed(url: string, commit: string): Promise<boolean> {
    try {
      await this.repo.push(url, commit);
      return true;
    } catch (err) {
      if (err instanceof GitError && /rejected|non-fast-forward|fetch first|stale info/i.test(err.stderr)) return false;
      throw err instanceof GitError ? gitFailure(err, url) : err;
    }
  }
}

const services = new WeakMap<ServiceContext, SyncService>();
export function getSync(ctx: ServiceContext): SyncService {
  let s = services.get(ctx);
  if (!s) services.set(ctx, (s = new SyncService(ctx)));
  return s;
}
