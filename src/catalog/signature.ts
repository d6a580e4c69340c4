import { walkSkill } from '../skills/index.js';

// A per-skill signature: every file the analysis saw, with size and mtime. A rescan walks the
// folder again without reading contents (readdir per folder, lstat per file) and compares, so an
// unchanged skill is never parsed, linted or hashed twice.

export type Signature = Array<[path: string, size: number, mtimeMs: number]>;

export function signatureOf(files: Array<{ path: string; size: number; mtimeMs: number }>): Signature {
  return files.map((f) => [f.path, f.size, f.mtimeMs]);
}

/** True when a file was added, removed, resized or touched under `dir` since `sig` was taken. */
export function signatureChanged(dir: string, sig: Signature): boolean {
  const now = walkSkill(dir, { hash: false }).files;
  if (now.length !== sig.length) return true;
  for (let i = 0; i < now.length; i++) {
    const [p, size, mtimeMs] = sig[i];
    const f = now[i];
    if (f.path !== p || f.size !== size || f.mtimeMs !== mtimeMs) return true;
  }
  return false;
}
