import { walkSkill } from '../skills/walk.js';

// A per-skill signature: every file the analysis saw, with size, mtime and whether it is
// executable (a chmod moves no mtime, and lint and the script checks care about it). A rescan walks the
// folder again without reading contents (readdir per folder, lstat per file) and compares, so an
// unchanged skill is never parsed, linted or hashed twice.

export type Signature = Array<[path: string, size: number, mtimeMs: number, executable: boolean]>;

export function signatureOf(files: Array<{ path: string; size: number; mtimeMs: number; executable: boolean }>): Signature {
  return files.map((f) => [f.path, f.size, f.mtimeMs, f.executable]);
}

/** True when a file was added, removed, resized or touched under `dir` since `sig` was taken. */
export function signatureChanged(dir: string, sig: Signature): boolean {
  const now = walkSkill(dir, { hash: false }).files;
  if (now.length !== sig.length) return true;
  for (let i = 0; i < now.length; i++) {
    const [p, size, mtimeMs, executable] = sig[i];
    const f = now[i];
    if (f.path !== p || f.size !== size || f.mtimeMs !== mtimeMs || f.executable !== executable) return true;
  }
  return false;
}
