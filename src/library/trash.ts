import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { TrashEntrySchema, type JournalChange, type TrashEntry } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { lstatOrNull, treeDigest } from './tree.js';
import { revertChange } from './journal.js';
import { setFrontmatterName } from './skill-md-edit.js';
import type { Announce } from './import.js';

// `<home>/trash/<id>/` holds `skill` (the folder or link exactly as it was in the library, moved,
// never copied) and `meta.json`. Moving is a rename inside the home, so it is atomic and a link
// stays a link: its target is never touched.

export function libraryDir(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'library');
}
export function trashDir(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'trash');
}

function stamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

/**
 * Trash entries a crash left half built (`.building-<id>`), settled when an interrupted undo is
 * finished: one that holds its skill is completed under its id (the skill is in the trash, as the
 * undo meant); one without (only its meta.json) is removed, since the skill is still where it was
 * and the finished undo moves it again. A link or a file under that name is left alone.
 */
export function settleBuildingTrash(ctx: ServiceContext): void {
  const dir = trashDir(ctx);
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith('.building-'));
  } catch {
    return;
  }
  for (const n of names) {
    const building = path.join(dir, n);
    if (!lstatOrNull(building)?.isDirectory()) continue;
    const done = path.join(dir, n.slice('.building-'.length));
    if (lstatOrNull(path.join(building, 'skill'))) {
      if (!lstatOrNull(done)) fs.renameSync(building, done);
    } else fs.rmSync(building, { recursive: true, force: true });
  }
}

/** Move a library entry to the trash. Returns the trash id and the journal changes. */
export function moveToTrash(
  ctx: ServiceContext,
  name: string,
  reason: TrashEntry['reason'],
  wal?: Announce,
): { entry: TrashEntry; changes: JournalChange[] } {
  const src = path.join(libraryDir(ctx), name);
  const st = lstatOrNull(src);
  if (!st) throw fail('not-found', 'library.not-found', { name });
  const now = new Date();
  const id = `${stamp(now)}-${name}-${randomBytes(3).toString('hex')}`;
  const dir = path.join(trashDir(ctx), id);
  const entry: TrashEntry = {
    id,
    name,
    time: now.toISOString(),
    reason,
    mode: st.isSymbolicLink() ? 'link' : 'copy',
    ...(st.isSymbolicLink() ? { linkTarget: fs.readlinkSync(src) } : {}),
    originalDir: src,
  };
  const changes: JournalChange[] = [];
  const record = (change: JournalChange, act: () => void) => {
    wal?.will(change);
    act();
    changes.push(change);
  };
  if (!lstatOrNull(trashDir(ctx)))
    record({ kind: 'created-dir', path: trashDir(ctx) }, () => fs.mkdirSync(trashDir(ctx), { recursive: true }));
  // Built under a hidden name and renamed whole: the trash never lists an entry without its skill.
  // The write-ahead log gets each real step; the journal the net effect (the entry made, the skill in it).
  const building = path.join(trashDir(ctx), `.building-${id}`);
  wal?.will({ kind: 'created-dir', path: building });
  fs.mkdirSync(building);
  wal?.will({ kind: 'created', path: path.join(building, 'meta.json') });
  fs.writeFileSync(path.join(building, 'meta.json'), JSON.stringify(entry, null, 2) + '\n', { flag: 'wx' });
  wal?.will({ kind: 'moved', from: src, to: path.join(building, 'skill') });
  fs.renameSync(src, path.join(building, 'skill'));
  wal?.will({ kind: 'moved', from: building, to: dir });
  fs.renameSync(building, dir);
  const meta = path.join(dir, 'meta.json');
  changes.push(
    { kind: 'created-dir', path: dir },
    { kind: 'created', path: meta, digest: treeDigest(meta) },
    { kind: 'moved', from: src, to: path.join(dir, 'skill') },
  );
  return { entry, changes };
}

export function listTrash(ctx: ServiceContext): TrashEntry[] {
  let ids: string[];
  try {
    ids = fs.readdirSync(trashDir(ctx));
  } catch {
    return [];
  }
  const out: TrashEntry[] = [];
  for (const id of ids) {
    try {
      const meta = TrashEntrySchema.parse(JSON.parse(fs.readFileSync(path.join(trashDir(ctx), id, 'meta.json'), 'utf8')));
      if (meta.id !== id || !lstatOrNull(path.join(trashDir(ctx), id, 'skill'))) continue;
      out.push(meta);
    } catch {
      // not ours or damaged: leave it alone
    }
  }
  return out.sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : 0));
}

/** Put a trash entry back under its name. Refuses when that name is taken again. */
/** The restored copy's `name:` set to its new folder name, journaled so undo puts the old text back. */
function renameRestored(dest: string, as: string, changes: JournalChange[], wal?: Announce): void {
  const file = path.join(dest, 'SKILL.md');
  const old = fs.readFileSync(file, 'utf8');
  const edited = setFrontmatterName(old, as);
  if (edited === null) {
    // Put everything back as it was (newest change first), then say why.
    for (const c of [...changes].reverse()) revertChange(c);
    throw fail('conflict', 'import.rename-failed', { name: as });
  }
  wal?.will({ kind: 'removed-file', path: file, content: old });
  fs.unlinkSync(file);
  changes.push({ kind: 'removed-file', path: file, content: old });
  wal?.will({ kind: 'created', path: file });
  fs.writeFileSync(file, edited, { flag: 'wx' });
  changes.push({ kind: 'created', path: file, digest: treeDigest(file) });
}

export function restoreFromTrash(
  ctx: ServiceContext,
  id: string,
  as?: string,
  wal?: Announce,
): { entry: TrashEntry; dir: string; changes: JournalChange[] } {
  const entry = listTrash(ctx).find((e) => e.id === id);
  if (!entry) throw fail('not-found', 'trash.not-found', { id });
  const name = as ?? entry.name;
  const dest = path.join(libraryDir(ctx), name);
  if (lstatOrNull(dest)) {
    throw fail('conflict', 'library.restore-taken', { name });
  }
  if (as !== undefined && as !== entry.name && entry.mode === 'link')
    throw fail('conflict', 'library.restore-as-link', { name: entry.name });
  const dir = path.join(trashDir(ctx), id);
  const meta = path.join(dir, 'meta.json');
  const inside = fs.readdirSync(dir).sort();
  if (inside.join('/') !== 'meta.json/skill') {
    throw fail('conflict', 'trash.unexpected', { id, files: inside });
  }
  const metaText = fs.readFileSync(meta, 'utf8');
  const changes: JournalChange[] = [];
  const record = (change: JournalChange, act: () => void) => {
    wal?.will(change);
    act();
    changes.push(change);
  };
  fs.mkdirSync(libraryDir(ctx), { recursive: true });
  record({ kind: 'moved', from: path.join(dir, 'skill'), to: dest }, () => fs.renameSync(path.join(dir, 'skill'), dest));
  record({ kind: 'removed-file', path: meta, content: metaText }, () => fs.unlinkSync(meta));
  record({ kind: 'removed-dir', path: dir }, () => fs.rmdirSync(dir));
  if (as !== undefined && as !== entry.name) renameRestored(dest, as, changes, wal);
  return { entry, dir: dest, changes };
}
