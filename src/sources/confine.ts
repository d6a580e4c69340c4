import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';
import type { MessageRef } from '../contract/index.js';
import { fail, SkillDockError } from '../errors.js';
import { checkRef, type ParsedSource } from './parse.js';

// A skill's folder inside a checkout, from a path SkillDock did not choose: a lock file's
// `skillPath`, a provenance record read back, an assistant file's `path`. Such a path is only
// followed when it is plain (no `..`, `.`, empty part, backslash, control character or absolute
// start) and the folder it names really lies inside the checkout (no link leads out of it).

/** Is `rel` a plain relative path inside a repository (`''` = the root)? */
export function isPlainRepoPath(rel: string): boolean {
  if (rel === '') return true;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f]/.test(rel) || rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) return false;
  return rel.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/**
 * The folder `rel` inside `checkout`; refused (`sources.path-outside`) when the path is not plain or
 * its real location is outside the checkout's real folder. A folder that does not exist is returned
 * as it is (the caller tells "removed upstream" apart).
 */
export function skillDirIn(checkout: string, rel: string, source: string): string {
  const refuse = () => fail('refused', 'sources.path-outside', { path: rel, source });
  if (!isPlainRepoPath(rel)) throw refuse();
  const dir = path.join(checkout, ...rel.split('/').filter(Boolean));
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    return dir;
  }
  if (!isInside(real, fs.realpathSync(checkout))) throw refuse();
  return dir;
}

/**
 * What is wrong with a source read back from a file (a provenance record, an assistant file): a
 * URL or ref git could take for an option, a path out of the repository; null when nothing is.
 * Such a source is reported, never fetched.
 */
export function sourceProblem(
  parse: (url: string) => ParsedSource,
  url: string,
  refs: Array<string | undefined>,
  rel: string,
): MessageRef | null {
  try {
    const p = parse(url);
    for (const ref of refs) if (ref !== undefined) checkRef(p.given, ref);
    if (!isPlainRepoPath(rel)) throw fail('refused', 'sources.path-outside', { path: rel, source: p.given });
    return null;
  } catch (err) {
    if (err instanceof SkillDockError && err.msg) return err.msg;
    throw err;
  }
}
