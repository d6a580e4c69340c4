import fs from 'node:fs';
import path from 'node:path';

// Files in SkillDock's home that another process may change while the app runs (the `skilldock`
// CLI attaching a skill, a second window, a hand edit). A long-lived front door watches them and
// tells its own engine, which pushes the usual events to the UI. Changes this process made itself
// are not reported twice: `markSeen` records what it wrote.

export interface HomeSyncOptions {
  /** Quiet time after the last file event before a file is re-read. */
  debounceMs?: number;
  /** Poll interval when the OS refuses a directory watcher (inotify limits, network homes). */
  pollMs?: number;
}

export interface HomeSync {
  /** The current content of `name` is known to this process (it just wrote it): no event for it. */
  markSeen(name: string): void;
  close(): void;
}

/** Files up to this size are compared by content; larger ones (the journal) by identity, size and times. */
const CONTENT_LIMIT = 256 * 1024;

/** What `file` holds now, cheaply: its content when small, else a stat signature; null when missing. */
function readRaw(file: string): string | null {
  try {
    const st = fs.statSync(file, { bigint: true });
    if (st.size > CONTENT_LIMIT) return `stat:${st.ino}:${st.size}:${st.mtimeNs}`;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Watch `names` (plain file names in `home`) and call `onChange(name)` when one's content differs
 * from the last content seen, after `debounceMs` of quiet. A removed file counts as a change.
 */
export function watchHomeFiles(home: string, names: string[], onChange: (name: string) => void, opts: HomeSyncOptions = {}): HomeSync {
  const debounceMs = opts.debounceMs ?? 120;
  const wanted = new Set(names);
  const last = new Map<string, string | null>();
  for (const n of names) last.set(n, readRaw(path.join(home, n)));
  const timers = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const check = (name: string) => {
    timers.delete(name);
    if (closed) return;
    const now = readRaw(path.join(home, name));
    if (now === last.get(name)) return;
    last.set(name, now);
    try {
      onChange(name);
    } catch {
      // a listener's failure must not stop the watch
    }
  };
  const touched = (name: string) => {
    if (closed || !wanted.has(name)) return;
    clearTimeout(timers.get(name));
    const t = setTimeout(() => check(name), debounceMs);
    t.unref();
    timers.set(name, t);
  };

  let stop: () => void;
  try {
    fs.mkdirSync(home, { recursive: true });
    // The directory, not the files: an atomic save replaces the file (rename), which a watcher on
    // the old file would never see again.
    const watcher = fs.watch(home, { persistent: false }, (_event, filename) => {
      if (filename) touched(filename.toString());
      else for (const n of names) touched(n); // some platforms omit the name: check them all
    });
    watcher.on('error', () => undefined);
    stop = () => watcher.close();
  } catch {
    const pollMs = opts.pollMs ?? 2000;
    const listeners = names.map((n) => {
      const file = path.join(home, n);
      const l = () => touched(n);
      fs.watchFile(file, { interval: pollMs, persistent: false }, l);
      return () => fs.unwatchFile(file, l);
    });
    stop = () => listeners.forEach((off) => off());
  }

  return {
    markSeen(name) {
      if (wanted.has(name)) last.set(name, readRaw(path.join(home, name)));
    },
    close() {
      closed = true;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      stop();
    },
  };
}
