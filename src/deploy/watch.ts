import fs from 'node:fs';
import path from 'node:path';

// Watching agents' folders for changes made by anyone (the user, another tool, an agent): one
// non-recursive watcher per folder that exists, or on its nearest existing parent while it does
// not (so a folder created later is noticed), re-armed when a folder appears or goes. Changes are
// gathered for 100 ms and reported once, well inside the second the window promises.

export interface FolderWatch {
  close(): void;
}

const GATHER_MS = 100;

export function watchFolders(folders: () => string[], onChange: (folders: string[]) => void): FolderWatch {
  const watchers = new Map<string, fs.FSWatcher>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const flush = () => {
    timer = null;
    const list = [...pending];
    pending = new Set();
    arm();
    if (list.length) onChange(list);
  };
  const touched = (folder: string) => {
    if (closed) return;
    pending.add(folder);
    timer ??= setTimeout(flush, GATHER_MS);
  };
  const nearest = (dir: string) => {
    let d = dir;
    while (!fs.existsSync(d) && path.dirname(d) !== d) d = path.dirname(d);
    return d;
  };
  function arm(): void {
    if (closed) return;
    const want = new Map<string, string>(); // watched path -> folder it stands for
    for (const f of folders()) want.set(nearest(f), f);
    for (const [p, w] of watchers) {
      if (!want.has(p)) {
        w.close();
        watchers.delete(p);
      }
    }
    for (const [p, folder] of want) {
      if (watchers.has(p)) continue;
      try {
        const w = fs.watch(p, { persistent: false }, () => touched(folder));
        w.on('error', () => {
          w.close();
          watchers.delete(p);
          touched(folder); // the folder went away: re-armed on its parent at the next flush
        });
        watchers.set(p, w);
      } catch {
        // unreadable: nothing to watch
      }
    }
  }
  arm();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const w of watchers.values()) w.close();
      watchers.clear();
    },
  };
}
