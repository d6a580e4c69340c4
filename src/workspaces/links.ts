import fs from 'node:fs';
import path from 'node:path';

// Links from a workspace to the real skill folders. A symlink on POSIX, a directory junction on
// Windows (no admin rights needed). Every link is checked after creation, and removal never
// follows a link: the skill folders behind them are the user's library.

export const LINK_TYPE: 'junction' | 'dir' = process.platform === 'win32' ? 'junction' : 'dir';

/**
 * Link `linkPath` -> `target` (an absolute real path; the link's parent dir must exist) and check
 * it; returns an error or null. The link was just made holding exactly `target`, so it resolves
 * wherever `target` does: one stat through it, of its SKILL.md, proves it resolves to a folder with
 * a SKILL.md file (the full check of an existing link is `verifyLink`).
 */
export function linkSkill(target: string, linkPath: string): string | null {
  try {
    fs.symlinkSync(target, linkPath, LINK_TYPE);
  } catch (err) {
    return `could not create link ${linkPath} -> ${target}: ${(err as Error).message}`;
  }
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(linkPath + path.sep + 'SKILL.md', { throwIfNoEntry: false });
  } catch (err) {
    return `${linkPath} does not resolve: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
  }
  if (!st) return fs.existsSync(linkPath) ? `${linkPath}/SKILL.md is missing` : `${linkPath} does not resolve: ENOENT`;
  if (!st.isFile()) return `${linkPath}/SKILL.md is not a file`;
  return null;
}

export interface RemoveStats {
  links: number;
  files: number;
  dirs: number;
}

/**
 * Remove a tree without ever following a link or junction: links are unlinked, real folders are
 * emptied and removed bottom-up. Whatever a link points to stays untouched.
 */
export function removeTreeNoFollow(root: string, stats: RemoveStats = { links: 0, files: 0, dirs: 0 }): RemoveStats {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return stats;
    throw err;
  }
  if (st.isSymbolicLink()) {
    unlinkLink(root);
    stats.links++;
    return stats;
  }
  if (!st.isDirectory()) {
    fs.unlinkSync(root);
    stats.files++;
    return stats;
  }
  for (const name of fs.readdirSync(root)) removeTreeNoFollow(path.join(root, name), stats);
  fs.rmdirSync(root);
  stats.dirs++;
  return stats;
}

function unlinkLink(p: string): void {
  try {
    fs.unlinkSync(p);
  } catch (err) {
    // A junction on Windows can refuse unlink with EPERM; rmdir removes the junction itself only.
    if (process.platform === 'win32' && (err as NodeJS.ErrnoException).code === 'EPERM') fs.rmdirSync(p);
    else throw err;
  }
}
