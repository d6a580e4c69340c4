import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { JournalChange, LibraryMode } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import type { WriteAhead } from './wal.js';
import { skillFacts } from './analyze.js';
import { libraryDir } from './trash.js';
import { copySkillTree, lstatOrNull, treeDigest, LinkOutsideError } from './tree.js';

// One skill put into an agent's user skills folder, as a copy or a link: a step of an export
// operation (src/library/library-service.ts), which may hold many and commits them as one entry.

export interface ExportOne {
  name: string;
  path: string;
  mode: LibraryMode;
  status: 'exported' | 'already-present';
}

/**
 * Export `name` into `root` under the library lock, announcing each change to `wal` and adding it
 * to `changes`. Throws (the caller's operation is then rolled back whole) when something else is
 * in the way.
 */
export async function exportOne(
  ctx: ServiceContext,
  wal: WriteAhead,
  input: { name: string; mode: LibraryMode; root: string },
  changes: JournalChange[],
): Promise<ExportOne> {
  const { name, mode, root } = input;
  const src = path.join(libraryDir(ctx), name);
  if (!lstatOrNull(src) || !fs.statSync(src, { throwIfNoEntry: false })?.isDirectory()) {
    throw fail('not-found', 'library.not-found', { name });
  }
  const dest = path.join(root, name);
  const present = { name, path: dest, mode, status: 'already-present' as const };
  const there = lstatOrNull(dest);
  if (there?.isSymbolicLink()) {
    let same: boolean;
    try {
      same = fs.realpathSync(dest) === fs.realpathSync(src);
    } catch {
      same = false;
    }
    if (same && mode === 'link') return present;
    throw fail('conflict', 'export.already-link', { path: dest, target: fs.readlinkSync(dest) });
  }
  if (there) {
    if (mode === 'copy' && there.isDirectory()) {
      const [a, b] = await Promise.all([skillFacts(ctx, dest), skillFacts(ctx, src, name)]);
      if (a.digest === b.digest) return present;
    }
    throw fail('refused', 'export.exists', { path: dest });
  }
  // record every folder level we create, so undo leaves the user's home as it was
  const missing: string[] = [];
  for (let d = root; !lstatOrNull(d); d = path.dirname(d)) missing.unshift(d);
  for (const d of missing) {
    wal.will({ kind: 'created-dir', path: d });
    fs.mkdirSync(d);
    changes.push({ kind: 'created-dir', path: d });
  }
  if (mode === 'link') {
    wal.will({ kind: 'created', path: dest, linkTarget: src });
    fs.symlinkSync(src, dest, 'dir');
    changes.push({ kind: 'created', path: dest, linkTarget: src });
  } else {
    const tmp = path.join(root, `.${name}.skilldock-${randomBytes(4).toString('hex')}`);
    wal.will({ kind: 'created', path: tmp });
    try {
      copySkillTree(src, tmp);
    } catch (err) {
      if (err instanceof LinkOutsideError) throw fail('refused', 'export.link-outside', { file: err.rel, target: err.target });
      throw err;
    }
    const digest = treeDigest(tmp);
    wal.will({ kind: 'moved', from: tmp, to: dest });
    fs.renameSync(tmp, dest);
    changes.push({ kind: 'created', path: dest, digest });
  }
  return { name, path: dest, mode, status: 'exported' };
}
