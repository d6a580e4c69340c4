import fs from 'node:fs';
import path from 'node:path';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { getLibrary } from '../library/library-service.js';
import { readRecord, scopeRecord } from './record.js';
import { USER_SCOPE, userScope } from './scopes.js';
import { getDeploy } from './service.js';

// A copy edited in place: its diff against the library's version, and keeping the edit (the copy
// becomes the library's version through the library's own replace, which keeps the old version in
// the trash; the copy is then re-recorded as in sync).

const MAX_TEXT = 256 * 1024;

function files(root: string, rel = '', out = new Map<string, string>()): Map<string, string> {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const d of names) {
    const r = rel ? `${rel}/${d.name}` : d.name;
    if (d.isDirectory()) files(root, r, out);
    else if (d.isFile()) {
      const p = path.join(root, r);
      out.set(r, fs.statSync(p).size > MAX_TEXT ? '(too large to show)' : fs.readFileSync(p, 'utf8'));
    }
  }
  return out;
}

function placedCopy(ctx: ServiceContext, p: string) {
  const rec = scopeRecord(readRecord(ctx), USER_SCOPE).placed[path.resolve(p)];
  if (!rec || rec.mode !== 'copy') throw fail('not-found', 'deploy.not-a-copy', { path: p });
  return rec;
}

export function copyDiff(ctx: ServiceContext, p: string) {
  const rec = placedCopy(ctx, p);
  const lib = files(path.join(userScope(ctx).libraryDir, rec.skill));
  const mine = files(path.resolve(p));
  const out: Array<{ file: string; library: string | null; deployed: string | null }> = [];
  for (const f of [...new Set([...lib.keys(), ...mine.keys()])].sort()) {
    const a = lib.get(f) ?? null;
    const b = mine.get(f) ?? null;
    if (a !== b) out.push({ file: f, library: a, deployed: b });
  }
  return { path: path.resolve(p), skill: rec.skill, files: out };
}

export async function adoptEdit(ctx: ServiceContext, p: string): Promise<{ skill: string; journalId: string }> {
  const abs = path.resolve(p);
  const rec = placedCopy(ctx, abs);
  const st = getDeploy(ctx)
    .status()
    .entries.find((e) => e.path === abs);
  if (st?.reason !== 'edited') throw fail('conflict', 'deploy.not-edited', { path: abs });
  await getLibrary(ctx).importPaths({ paths: [abs], onConflict: 'replace' });
  const r = await getDeploy(ctx).repair({ restore: [abs] });
  return { skill: rec.skill, journalId: r.journalId ?? '' };
}
