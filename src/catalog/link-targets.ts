import fs from 'node:fs';
import path from 'node:path';

// A skill in a root may be a link to a folder elsewhere (adopted by link, made by hand, a library
// skill linked into an agent's folder). The root's watcher sees the link itself change, but not
// its target coming back after it went away (an undo restoring the library folder, a folder moved
// back): the link would read as dangling until something else touched it. So each link found in
// a watched root is remembered with its target, and a change at the target marks the link too:
// - a target inside a watched root: the root watcher's event for the target names the link;
// - a target elsewhere: one non-recursive OS watch on the target's parent folder, shared by every
//   link into that folder, reports the target's name appearing or going.
//   The target folder itself is watched too (its top level): the root's watcher stops following
//   a link whose target went, and would not see edits in it once it is back.
// Bounded: at most MAX_LINKS links, MAX_PARENT_WATCHES parent folders and as many target folders;
// links past that are noticed as before (their own events, or the next refresh).

export const MAX_LINKS = 2000;
export const MAX_PARENT_WATCHES = 64;

interface ParentWatch {
  watcher: fs.FSWatcher;
  /** Target names in this folder -> their full paths. */
  names: Set<string>;
}

export class LinkTargets {
  private targetOf = new Map<string, string>();
  private linksOf = new Map<string, Set<string>>();
  private parents = new Map<string, ParentWatch>();
  /** Targets elsewhere whose own folder is watched (its top level: SKILL.md and its siblings). */
  private targets = new Map<string, fs.FSWatcher>();
  private closed = false;

  constructor(
    /** A link whose target changed: re-read it. */
    private onTarget: (link: string) => void,
    /** Whether a path lies in a watched root (its events already reach the watcher). */
    private isWatched: (p: string) => boolean,
  ) {}

  /** How much is held: links remembered, parent folders and target folders watched. */
  counts(): { links: number; parents: number; targets: number } {
    return { links: this.targetOf.size, parents: this.parents.size, targets: this.targets.size };
  }

  /** The links pointing at `p` (exactly: a root's child that is some link's target). */
  linksAt(p: string): string[] {
    const links = this.linksOf.get(p);
    return links ? [...links] : [];
  }

  /** Look at every child of `root`. */
  noteRoot(root: string): void {
    let names: fs.Dirent[];
    try {
      names = fs.readdirSync(root, { withFileTypes: true });
    } catch {
      return;
    }
    for (const d of names) if (d.isSymbolicLink()) this.note(path.join(root, d.name));
  }

  /** Look at `p` (a root's child) again: remember it when it is a link, forget it otherwise. */
  note(p: string): void {
    if (this.closed) return;
    let target: string | null = null;
    try {
      if (fs.lstatSync(p).isSymbolicLink()) target = path.resolve(path.dirname(p), fs.readlinkSync(p));
    } catch {
      target = null;
    }
    const before = this.targetOf.get(p);
    if (before === target) return;
    if (before !== undefined) this.forget(p, before);
    if (target === null || this.targetOf.size >= MAX_LINKS) return;
    this.targetOf.set(p, target);
    let links = this.linksOf.get(target);
    if (!links) this.linksOf.set(target, (links = new Set()));
    links.add(p);
    if (!this.isWatched(target)) {
      this.watchParent(target);
      this.watchTarget(target);
    }
  }

  /**
   * Watch a target folder elsewhere itself: the root's watcher stops following a link whose target
   * went away and does not follow it again when it comes back, so edits inside it would go unseen.
   */
  private watchTarget(target: string): void {
    if (this.closed || this.targets.has(target) || this.targets.size >= MAX_PARENT_WATCHES) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(target, { persistent: false }, () => {
        for (const link of this.linksAt(target)) this.onTarget(link);
      });
    } catch {
      return; // not there (now): its parent's watch sees it come back
    }
    const drop = () => {
      watcher.close();
      if (this.targets.get(target) === watcher) this.targets.delete(target);
    };
    watcher.on('error', drop);
    this.targets.set(target, watcher);
  }

  private unwatchTarget(target: string): void {
    this.targets.get(target)?.close();
    this.targets.delete(target);
  }

  private forget(link: string, target: string): void {
    this.targetOf.delete(link);
    const links = this.linksOf.get(target);
    links?.delete(link);
    if (links && links.size === 0) {
      this.linksOf.delete(target);
      const parent = this.parents.get(path.dirname(target));
      parent?.names.delete(path.basename(target));
      this.unwatchTarget(target);
      if (parent && parent.names.size === 0) {
        parent.watcher.close();
        this.parents.delete(path.dirname(target));
      }
    }
  }

  private watchParent(target: string): void {
    const dir = path.dirname(target);
    const known = this.parents.get(dir);
    if (known) {
      known.names.add(path.basename(target));
      return;
    }
    if (this.parents.size >= MAX_PARENT_WATCHES) return;
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: false }, (_event, filename) => {
        const entry = this.parents.get(dir);
        if (!entry || this.closed) return;
        // Some platforms omit the name: then every target in the folder may have changed.
        const names = filename ? [filename.toString()].filter((n) => entry.names.has(n)) : [...entry.names];
        for (const n of names) {
          const target = path.join(dir, n);
          // Gone or back: the old watch of the folder (if any) is of a folder that is no more.
          this.unwatchTarget(target);
          this.watchTarget(target);
          for (const link of this.linksAt(target)) this.onTarget(link);
        }
      });
    } catch {
      return; // the folder is gone too, or unreadable: the link's own events are all there is
    }
    watcher.on('error', () => undefined);
    this.parents.set(dir, { watcher, names: new Set([path.basename(target)]) });
  }

  close(): void {
    this.closed = true;
    for (const p of this.parents.values()) p.watcher.close();
    this.parents.clear();
    this.targetOf.clear();
    this.linksOf.clear();
    for (const w of this.targets.values()) w.close();
    this.targets.clear();
  }
}
