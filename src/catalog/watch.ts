import fs from 'node:fs';
import { watch, type FSWatcher } from 'chokidar';

// Watches skill roots and reports which paths changed, debounced, so the catalog re-reads only
// the skills under them. chokidar cannot watch a folder that does not exist yet, so missing roots
// are polled (a stat per root per tick) and watched once they appear.

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
  private timer: NodeJS.Timeout | null = null;
  private firstDirtyAt = 0;
  private poller: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private onDirty: (paths: string[]) => void,
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
    for (const p of paths) this.live.add(p);
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

  private mark(p: string): void {
    if (this.closed) return;
    if (!this.dirty.size) this.firstDirtyAt = Date.now();
    this.dirty.add(p);
    if (this.timer) clearTimeout(this.timer);
    const waited = Date.now() - this.firstDirtyAt;
    const delay = Math.max(0, Math.min(this.options.debounceMs, this.options.maxWaitMs - waited));
    this.timer = setTimeout(() => this.flush(), delay);
  }

  private flush(): void {
    this.timer = null;
    const paths = [...this.dirty];
    this.dirty.clear();
    if (paths.length) this.onDirty(paths);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.poller) clearInterval(this.poller);
    this.timer = this.poller = null;
    this.roots.clear();
    this.live.clear();
    this.dirty.clear();
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
