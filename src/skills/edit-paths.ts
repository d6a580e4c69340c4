import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';
import { fail } from '../errors.js';

// Where an editor may read and write inside a skill: a relative, `/`-separated path with no `.`,
// `..` or empty part, resolved component by component so a link inside the skill can never carry
// a read outside it, and a write never goes through a link at all.

/** Largest file the editor opens as editable text (bigger ones open read-only). */
export const EDIT_MAX_BYTES = 1 << 20;

/** The path split into its parts, or a refusal with a message key saying what is wrong. */
export function checkRelPath(rel: string): string[] {
  if (rel === '') throw fail('refused', 'editor.path.empty');
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(rel)) throw fail('refused', 'editor.path.control', { path: rel });
  if (rel.includes('\\')) throw fail('refused', 'editor.path.backslash', { path: rel });
  if (rel.startsWith('/') || /^[A-Za-z]:/.test(rel)) throw fail('refused', 'editor.path.absolute', { path: rel });
  const parts = rel.split('/');
  if (parts.some((p) => p === '' || p === '.' || p === '..')) throw fail('refused', 'editor.path.dots', { path: rel });
  return parts;
}

/**
 * The absolute path of `rel` inside `skillDir`. For `write`, no part may be a link (the file is
 * created or replaced in place); for reading, a link is followed only when its real target stays
 * inside the skill's real folder. Missing parts are fine (a new file or folder).
 */
export function resolveInSkill(skillDir: string, rel: string, mode: 'read' | 'write'): string {
  const parts = checkRelPath(rel);
  const realSkill = fs.realpathSync(skillDir);
  let cur = skillDir;
  for (let i = 0; i < parts.length; i++) {
    cur = path.join(cur, parts[i]);
    const st = fs.lstatSync(cur, { throwIfNoEntry: false });
    if (!st) break; // the rest does not exist yet
    if (!st.isSymbolicLink()) continue;
    const link = parts.slice(0, i + 1).join('/');
    if (mode === 'write') throw fail('refused', 'editor.path.link-write', { path: rel, link });
    let real: string;
    try {
      real = fs.realpathSync(cur);
    } catch {
      throw fail('refused', 'editor.path.link-outside', { path: rel, link }); // dangling: nothing safe to read
    }
    if (!isInside(real, realSkill)) throw fail('refused', 'editor.path.link-outside', { path: rel, link });
  }
  return path.join(skillDir, ...parts);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Text when the bytes are valid UTF-8 without NUL (a BOM is kept), else null: a binary file. */
export function decodeText(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
