import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { TrashEntrySchema, type JournalChange, type TrashEntry } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { SkillDockError, fail } from '../errors.js';
import { lstatOrNull, treeDigest } from './tree.js';
import { revertChange } from './journal.js';
import { setFrontmatterName } from './skill-md-edit.js';

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

/** Move a library entry to the trash. Returns the trash id and the journal changes. */
export function moveToTrash(
  ctx: ServiceContext,
  name: string,
  reason: TrashEntry['reason'],
): { entry: TrashEntry; changes: JournalChange[] } {
  const src = path.join(libraryDir(ctx), name);
  const st = lstatOrNull(src);
  if (!st) throw new SkillDockError('not-found', `No skill named "${name}" in the library.`);
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
  if (!lstatOrNull(trashDir(ctx))) {
    fs.mkdirSync(trashDir(ctx), { recursive: true });
    changes.push({ kind: 'created-dir', path: trashDir(ctx) });
  }
  fs.mkdirSync(dir);
  changes.push({ kind: 'created-dir', path: dir });
  const meta = path.join(dir, 'meta.json');
  fs.writeFileSync(meta, JSON.stringify(entry, null, 2) + '\n', { flag: 'wx' });
  changes.push({ kind: 'created', path: meta, digest: treeDigest(meta) });
  fs.renameSync(src, path.join(dir, 'skill'));
  changes.push({ kind: 'moved', from: src, to: path.join(dir, 'skill') });
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
function renameRestored(dest: string, as: string, changes: JournalChange[]): void {
  const file = path.join(dest, 'SKILL.md');
  const old = fs.readFileSync(file, 'utf8');
  const edited = setFrontmatterName(old, as);
  if (edited === null) {
    // Put everything back as it was (newest change first), then say why.
    for (const c of [...changes].reverse()) revertChange(c);
    throw fail('conflict', 'import.rename-failed', { name: as });
  }
  fs.unlinkSync(file);
  changes.push({ kind: 'removed-file', path: file, content: old });
  fs.writeFileSync(file, edited, { flag: 'wx' });
  changes.push({ kind: 'created', path: file, digest: treeDigest(file) });
}

export function restoreFromTrash(
  ctx: ServiceContext,
  id: string,
  as?: string,
): { entry: TrashEntry; dir: string; changes: JournalChange[] } {
  const entry = listTrash(ctx).find((e) => e.id === id);
  if (!entry) throw new SkillDockError('not-found', `No trash entry "${id}".`);
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
    throw new SkillDockError('conflict', `Trash entry "${id}" holds unexpected files (${inside.join(', ')}); restore it by hand.`);
  }
  const metaText = fs.readFileSync(meta, 'utf8');
  const changes: JournalChange[] = [];
  fs.mkdirSync(libraryDir(ctx), { recursive: true });
  fs.renameSync(path.join(dir, 'skill'), dest);
  changes.push({ kind: 'moved', from: path.join(dir, 'skill'), to: dest });
  fs.unlinkSync(meta);
  changes.push({ kind: 'removed-file', path: meta, content: metaText });
  fs.rmdirSync(dir);
  changes.push({ kind: 'removed-dir', path: dir });
  if (as !== undefined && as !== entry.name) renameRestored(dest, as, changes);
  return { entry, dir: dest, changes };
}
