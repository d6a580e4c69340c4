import type { JournalChange } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import type { WriteAhead } from './wal.js';

// Other domains that keep something in step with library skills (src/deploy keeps agents' folders)
// register here; the library calls them inside its own journaled operation, under its lock, so
// what they change is announced to the same write-ahead log and reverted by the same undo. This is
// a hook, not an import: the library does not know who follows it.

export interface LibraryChange {
  /** `rename`: a skill now under another name (`renamed`), its folder moved in this operation. */
  op: 'delete' | 'restore' | 'update' | 'rename';
  /** Library folder names the operation removed, brought back or changed. */
  names: string[];
  /** Skills now under another name (old name → new, the new one in `names`): a rename, or a restore under another name. */
  renamed?: Record<string, string>;
}

export type LibraryFollower = (wal: WriteAhead, change: LibraryChange) => JournalChange[];

const KEY = 'library:followers';

export function registerLibraryFollower(ctx: ServiceContext, fn: LibraryFollower): void {
  const list = ctx.use(KEY, () => [] as LibraryFollower[]);
  if (!list.includes(fn)) list.push(fn);
}

/** Let every follower carry the change over; their journal changes join the operation's entry. */
export function followLibrary(ctx: ServiceContext, wal: WriteAhead, change: LibraryChange): JournalChange[] {
  if (!change.names.length) return [];
  return ctx.use(KEY, () => [] as LibraryFollower[]).flatMap((fn) => fn(wal, change));
}
