import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { LinkTargets } from './link-targets.js';

// Watches skill roots and reports which of their children changed, debounced, so the catalog
// re-reads only those skills. chokidar cannot watch a folder that does not exist yet, so missing
// roots are polled (a stat per root per tick) and watched once they appear.
//
// The work is bounded whatever a skill holds: chokidar goes WATCH_DEPTH levels down (a root's
// children, their files and folders, and what those folders hold), so a skill of 20,000 folders is
// not 20,000 watches, nor a new watch per folder renamed; an event counts only as the child it is
// under (20,000 renames in one skill are one dirty skill); and past MAX_DIRTY children in one burst
// the roots they are in are rescanned whole instead.

/**
 * chokidar's `depth`: a root's children (skills), their entries, and one level more
 * (`references/x.md`, `scripts/run.sh`). A change deeper down is found by the next refresh of the
 * skill (any event of the skill, or an explicit refresh).
 */
export const WATCH_DEPTH = 2;
/** Distinct children one burst may name before the burst becomes a full rescan of its roots. */
export const MAX_DIRTY = 2000;

export interface WatcherOptions {
  debounceMs: number;
  /** Longest a burst of events may delay a refresh. */
  maxWaitMs: number;
  pollMs: number;
}

export class RootWatcher {
  /** One chokidar instance per batch of roots: chokidar reports `ready` only for its first batch. */
  private watchers = new Map<string, FSWatcher>();
  private roots = new Map<string, boolean>(); // path -> exists (as last seen)
  /** Roots whose watch is in place (or that are polled because they do not exist). */
  private live = new Set<string>();
  private dirty = new Set<string>();
  /** Roots that overflowed MAX_DIRTY in this burst: rescanned whole. */
  private overflow = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private firstDirtyAt = 0;
  private poller: NodeJS.Timeout | null = null;
  private closed = false;
  /** Links in the roots and their targets: a target coming back marks its link (link-targets.ts). */
  private links = new LinkTargets(
    (link) => this.mark(link),
    (p) => this.childOf(p) !== null,
  );

  constructor(
    /** `full`: roots to rescan whole (a burst past MAX_DIRTY); `paths`: a root or a child of one. */
    private onDirty: (paths: string[], full: string[]) => void,
    private options: WatcherOptions,
  ) {}

  paths(): string[] {
    return [...this.roots.keys()].filter((p) => this.live.has(p));
  }

  /** Start watching more roots; resolves when the watcher has its initial view. */
  async add(paths: string[]): Promise<void> {
    const fresh = paths.filter((p) => !this.roots.has(p));
    if (!fresh.length || this.closed) return;
    const present: string[] = [];
    for (const p of fresh) {
      const exists = isDir(p);
      this.roots.set(p, exists);
      if (exists) present.push(p);
      else this.live.add(p);
    }
    this.poller ??= setInterval(() => this.poll(), this.options.pollMs);
    this.poller.unref?.();
    if (present.length) await this.watchPaths(present);
  }

  private async watchPaths(paths: string[]): Promise<void> {
    const w = watch(paths, {
      ignoreInitial: true,
      followSymlinks: true,
      depth: WATCH_DEPTH,
      // A skill's own VCS or dependency folders say nothing about the skill's catalog entry.
      ignored: (p: string) => /[\\/](\.git|node_modules)([\\/]|$)/.test(p),
    });
    w.on('all', (_event, p) => this.mark(p));
    w.on('error', () => {
      // an unreadable folder must not take the engine down; the next poll or refresh repairs it
    });
    for (const p of paths) this.watchers.set(p, w);
    await new Promise<void>((resolve) => w.once('ready', () => resolve()));
    if (this.closed) {
      await w.close();
      return;
    }
    for (const p of paths) {
      this.live.add(p);
      this.links.noteRoot(p);
    }
  }

  private poll(): void {
    for (const [p, was] of this.roots) {
      const now = isDir(p);
      if (now === was) continue;
      this.roots.set(p, now);
      if (now) {
        // a fresh watcher: chokidar does not pick a root back up after it was deleted and recreated
        const old = this.watchers.get(p);
        if (old) old.unwatch(p);
        this.live.delete(p);
        void this.watchPaths([p]).then(() => this.mark(p));
      } else {
        this.mark(p);
      }
    }
  }

  /** The (innermost) root `p` is in and the child of it `p` is under (or the root itself), or null. */
  private childOf(p: string): { root: string; key: string } | null {
    let best: { root: string; key: string } | null = null;
    for (const root of this.roots.keys()) {
      if (best && best.root.length >= root.length) continue;
      if (p === root) best = { root, key: root };
      else {
        const prefix = root.endsWith(path.sep) ? root : root + path.sep;
        if (!p.startsWith(prefix)) continue;
        const end = p.indexOf(path.sep, prefix.length);
        best = { root, key: end < 0 ? p : p.slice(0, end) };
      }
    }
    return best;
  }

  private mark(p: string): void {
    if (this.closed) return;
    if (!this.dirty.size && !this.overflow.size) this.firstDirtyAt = Date.now();
    const at = this.childOf(p);
    if (!at) return;
    if (this.overflow.has(at.root)) {
      // already to be rescanned whole
    } else if (this.dirty.size >= MAX_DIRTY && !this.dirty.has(at.key)) {
      this.overflow.add(at.root);
      for (const k of this.dirty) if (k === at.root || k.startsWith(at.root + path.sep)) this.dirty.delete(k);
    } else this.dirty.add(at.key);
    // A link's target changed: the link's entry changes with it (dangling, or healthy again).
    for (const link of this.links.linksAt(at.key)) {
      const l = this.childOf(link);
      if (l && !this.overflow.has(l.root) && this.dirty.size < MAX_DIRTY) this.dirty.add(l.key);
    }
    if (this.timer) clearTimeout(this.timer);
    const waited = Date.now() - this.firstDirtyAt;
    const delay = Math.max(0, Math.min(this.options.debounceMs, this.options.maxWaitMs - waited));
    this.timer = setTimeout(() => this.flush(), delay);
  }

  private flush(): void {
    this.timer = null;
    const paths = [...this.dirty];
    const full = [...this.overflow];
    this.dirty.clear();
    this.overflow.clear();
    for (const p of paths) if (!this.roots.has(p)) this.links.note(p);
    for (const r of full) this.links.noteRoot(r);
    if (paths.length || full.length) this.onDirty(paths, full);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.links.close();
    if (this.timer) clearTimeout(this.timer);
    if (this.poller) clearInterval(this.poller);
    this.timer = this.poller = null;
    this.roots.clear();
    this.live.clear();
    this.dirty.clear();
    this.overflow.clear();
    const ws = new Set(this.watchers.values());
    this.watchers.clear();
    await Promise.all([...ws].map((w) => w.close()));
  }
}

function isDir(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}
