import fs from 'node:fs';
import path from 'node:path';
import { JournalEntrySchema, type SkillDockEvent } from './contract/index.js';
import type { ServiceContext } from './service-context.js';
import { getCatalog } from './catalog/index.js';
import { getSettings } from './settings/settings.js';
import { journalFile, libraryNames } from './library/journal.js';
import { watchHomeFiles } from './store/home-sync.js';

// What another SkillDock process (the `skilldock` CLI, a second window) writes in the home while
// a long-lived front door runs: the files are watched, and each change becomes the event this
// process would have sent had it made the change itself, so the open window refetches it.
//   settings.json   -> settings-changed (with the new settings)
//   assistants.json -> assistants-changed `reloaded`
//   approvals.json  -> approval-changed `reloaded`
//   journal.jsonl   -> the catalog re-reads the library folders the new entries touched, then
//                      library-changed (every disk-changing operation appends one line: import,
//                      delete, undo, restore, adopt, export, rename, update)
// Changes this process made are announced already; the watcher is told (markSeen) and stays quiet.

const FILES = ['settings.json', 'assistants.json', 'approvals.json', 'journal.jsonl'] as const;
type WatchedFile = (typeof FILES)[number];

/** At most this much of the journal's new tail is read for names; past it, the whole library is re-read. */
const TAIL_LIMIT = 1024 * 1024;

/** The journal's size, 0 when it does not exist. */
function sizeOf(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** The op and library folder names of the journal lines written after `from` (null: unknown, re-read all). */
function journalTail(ctx: ServiceContext, from: number, to: number): { ops: string[]; names: string[] } | null {
  if (to < from || to - from > TAIL_LIMIT) return null;
  const buf = Buffer.alloc(to - from);
  const fd = fs.openSync(journalFile(ctx), 'r');
  try {
    fs.readSync(fd, buf, 0, buf.length, from);
  } finally {
    fs.closeSync(fd);
  }
  const ops: string[] = [];
  const names = new Set<string>();
  for (const line of buf.toString('utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JournalEntrySchema.parse(JSON.parse(line));
      ops.push(entry.op);
      for (const n of libraryNames(ctx, entry.changes ?? [])) names.add(n);
    } catch {
      return null; // a line cut short by a write in progress, or damage: re-read everything
    }
  }
  return { ops, names: [...names] };
}

/** Watch the home's shared files for the life of `ctx`, announcing changes on its event bus. */
export function startLiveSync(ctx: ServiceContext): void {
  const libraryDir = path.join(ctx.paths.home, 'library');
  let journalSeen = sizeOf(journalFile(ctx));

  const journalChanged = async (): Promise<void> => {
    const now = sizeOf(journalFile(ctx));
    let tail: ReturnType<typeof journalTail>;
    try {
      tail = journalTail(ctx, journalSeen, now);
    } catch {
      tail = null; // the journal went between the stat and the read: re-read everything
    }
    journalSeen = now;
    const names = tail?.names ?? [];
    try {
      // The skills the entries name, and the library folder itself (a name that came or went).
      await getCatalog(ctx).refresh([...names.map((n) => path.join(libraryDir, n)), libraryDir]);
    } catch {
      // the catalog's own watcher notices it a moment later
    }
    ctx.events.emit({ type: 'library-changed', names, op: tail?.ops.at(-1) ?? 'reloaded' });
  };

  const announce = (name: WatchedFile): void => {
    if (name === 'settings.json') {
      let settings;
      try {
        settings = getSettings(ctx).get();
      } catch {
        return; // unreadable (a newer SkillDock's file): the next call reports it
      }
      ctx.events.emit({ type: 'settings-changed', settings });
    } else if (name === 'assistants.json') {
      ctx.events.emit({ type: 'assistants-changed', action: 'reloaded', id: '*' });
    } else if (name === 'approvals.json') {
      ctx.events.emit({ type: 'approval-changed', name: '*', action: 'reloaded', digest: null });
    } else {
      void journalChanged();
    }
  };
  const sync = watchHomeFiles(ctx.paths.home, [...FILES], (name) => announce(name as WatchedFile));

  // What this process writes it has already announced: remember it so the watcher stays quiet.
  const ownFile: Partial<Record<SkillDockEvent['type'], WatchedFile>> = {
    'settings-changed': 'settings.json',
    'assistants-changed': 'assistants.json',
    'approval-changed': 'approvals.json',
    'library-changed': 'journal.jsonl',
  };
  const off = ctx.events.on((e) => {
    const file = ownFile[e.type];
    if (!file) return;
    sync.markSeen(file);
    if (file === 'journal.jsonl') journalSeen = sizeOf(journalFile(ctx));
  });
  ctx.onClose(() => {
    off();
    sync.close();
  });
}
