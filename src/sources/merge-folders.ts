import fs from 'node:fs';
import path from 'node:path';
import type { FileChoice, UpdateFile } from '../contract/index.js';
import { lstatOrNull, LinkOutsideError } from '../library/tree.js';
import { asText, merge3 } from './merge.js';
import { fileMap } from './files.js';

// The three-way merge of two skill folders against their common base, file by file (text files
// line by line with merge3): used by `update` (the library against a new upstream) and by keeping
// the edit of a deployed copy (the library against the copy, src/deploy/edits.ts).

export type MergeOp = { path: string; kind: 'upstream' } | { path: string; kind: 'delete' } | { path: string; kind: 'write'; text: string };

export interface FolderMerge {
  files: UpdateFile[];
  ops: MergeOp[];
  conflicts: number;
}

function read(dir: string, rel: string): Buffer | null {
  const p = path.join(dir, ...rel.split('/'));
  const st = lstatOrNull(p);
  if (!st || st.isSymbolicLink() || !st.isFile()) return null;
  return fs.readFileSync(p);
}

/**
 * Decide every file of one skill folder: `base` the version both sides started from, `ours` the
 * library's, `theirs` the incoming one (a new upstream, or a deployed copy edited in place).
 * `choices` settle conflicts per file; `take` settles every one.
 */
export function mergeFolders(
  base: string,
  ours: string,
  theirs: string,
  choices: Record<string, FileChoice>,
  take?: 'upstream' | 'mine',
): FolderMerge {
  const B = fileMap(base);
  const O = fileMap(ours);
  const T = fileMap(theirs);
  const paths = [...new Set([...B.keys(), ...O.keys(), ...T.keys()])].sort();
  const out: FolderMerge = { files: [], ops: [], conflicts: 0 };
  const takeUpstream = (p: string, b: string | undefined, t: string | undefined): void => {
    if (t === undefined) out.ops.push({ path: p, kind: 'delete' });
    else out.ops.push({ path: p, kind: 'upstream' });
    out.files.push({ path: p, action: t === undefined ? 'removed' : b === undefined ? 'added' : 'changed' });
  };
  for (const p of paths) {
    const b = B.get(p);
    const o = O.get(p);
    const t = T.get(p);
    if (o === t) continue; // same on both sides (untouched, or the same change)
    if (o === b) {
      takeUpstream(p, b, t);
      continue;
    }
    if (t === b) {
      out.files.push({ path: p, action: 'kept' }); // changed or created by the user; upstream did not touch it
      continue;
    }
    // changed on both sides
    const bt = b === undefined ? '' : b.startsWith('link:') ? null : asText(read(base, p) ?? Buffer.alloc(0));
    const ot = o === undefined ? undefined : o.startsWith('link:') ? null : asText(read(ours, p) ?? Buffer.alloc(0));
    const tt = t === undefined ? undefined : t.startsWith('link:') ? null : asText(read(theirs, p) ?? Buffer.alloc(0));
    let conflict: UpdateFile['conflict'];
    let merged: string | undefined;
    if (t === undefined) conflict = 'deleted-upstream';
    else if (o === undefined) conflict = 'deleted-locally';
    else if (bt === null || ot === null || tt === null || ot === undefined || tt === undefined) conflict = 'binary';
    else {
      const m = merge3(bt, ot, tt);
      if (m.clean) {
        out.ops.push({ path: p, kind: 'write', text: m.text });
        out.files.push({ path: p, action: 'merged' });
        continue;
      }
      conflict = 'both-changed';
      merged = m.text;
    }
    const choice = choices[p] ?? take;
    if (choice === 'upstream') {
      if (t === undefined) out.ops.push({ path: p, kind: 'delete' });
      else out.ops.push({ path: p, kind: 'upstream' });
      out.files.push({ path: p, action: 'resolved' });
    } else if (choice === 'mine') {
      out.files.push({ path: p, action: 'resolved' });
    } else if (choice && typeof choice === 'object') {
      out.ops.push({ path: p, kind: 'write', text: choice.content });
      out.files.push({ path: p, action: 'resolved' });
    } else {
      out.conflicts++;
      out.files.push({
        path: p,
        action: 'conflict',
        conflict,
        ...(typeof bt === 'string' && b !== undefined ? { base: bt } : {}),
        ...(typeof ot === 'string' ? { mine: ot } : {}),
        ...(typeof tt === 'string' ? { upstream: tt } : {}),
        ...(merged !== undefined ? { merged } : {}),
      });
    }
  }
  return out;
}

/** Apply the ops to `dest` (a staging copy of ours). Never writes through a link. */
export function applyMerge(dest: string, theirs: string, ops: MergeOp[]): void {
  for (const op of ops) {
    const parts = op.path.split('/');
    let cur = dest;
    for (const part of parts.slice(0, -1)) {
      cur = path.join(cur, part);
      const st = lstatOrNull(cur);
      if (st?.isSymbolicLink()) throw new LinkOutsideError(op.path, fs.readlinkSync(cur));
      if (!st) fs.mkdirSync(cur);
    }
    const target = path.join(dest, ...parts);
    const st = lstatOrNull(target);
    if (st) fs.rmSync(target, { recursive: st.isDirectory(), force: true });
    if (op.kind === 'delete') continue;
    if (op.kind === 'write') fs.writeFileSync(target, op.text);
    else {
      const from = path.join(theirs, ...parts);
      const fst = fs.lstatSync(from);
      if (fst.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), target);
      else {
        fs.copyFileSync(from, target);
        fs.chmodSync(target, fst.mode & 0o777);
      }
    }
  }
}
