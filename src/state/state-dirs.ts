import fs from 'node:fs';
import path from 'node:path';
import { fail } from '../errors.js';
import { isValidStateId } from './state-id.js';
import { isInside } from '../base/extpath.js';

// Each skill's private writable dir lives at `<home>/skills-state/<id>/`. Ids come from untrusted
// frontmatter and URIs come from agents, so every path built here is checked to stay inside.

export const STATE_URI_PREFIX = 'skill://state/';

export function stateRoot(home: string): string {
  return path.join(home, 'skills-state');
}

/** The state dir of `id`; throws `refused` for anything that is not one safe path segment. */
export function stateDirFor(home: string, id: string): string {
  if (!isValidStateId(id)) throw fail('refused', 'state.invalid-id', { id: String(id) });
  const root = stateRoot(home);
  const dir = path.join(root, id);
  if (path.dirname(dir) !== root) throw fail('refused', 'state.id-escapes', { id });
  return dir;
}

/**
 * Create the state dir (and skills-state) if missing. A state dir that exists as a link or a file is
 * refused: following it would let a state write land anywhere on disk.
 */
export function ensureStateDir(home: string, id: string): string {
  const dir = stateDirFor(home, id);
  let st: fs.Stats | undefined;
  try {
    st = fs.lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (!st) {
    fs.mkdirSync(dir, { recursive: true });
    st = fs.lstatSync(dir);
  }
  if (!st.isDirectory()) throw fail('refused', 'state.dir-not-plain', { path: dir });
  return dir;
}

export function stateUri(id: string, rel = ''): string {
  return `${STATE_URI_PREFIX}${id}/${rel}`;
}

export interface StateResolution {
  uri: string;
  id: string;
  path: string;
  exists: boolean;
}

/**
 * `skill://state/<id>/<path>` -> an absolute path inside that skill's state dir. Refuses `..`,
 * absolute paths, backslashes, NUL and percent-escapes that decode to any of those, and a path
 * whose existing part leads out of the state dir through a link.
 */
export function resolveStateUri(home: string, uri: string): StateResolution {
  if (!uri.startsWith(STATE_URI_PREFIX)) {
    throw fail('bad-request', 'state.not-uri', { prefix: STATE_URI_PREFIX, uri });
  }
  const rest = uri.slice(STATE_URI_PREFIX.length).split(/[?#]/)[0]!;
  const slash = rest.indexOf('/');
  const id = slash === -1 ? rest : rest.slice(0, slash);
  const dir = stateDirFor(home, id);
  const segments: string[] = [];
  for (const raw of slash === -1 ? [] : rest.slice(slash + 1).split('/')) {
    let seg: string;
    try {
      seg = decodeURIComponent(raw);
    } catch {
      throw fail('refused', 'state.bad-escape', { uri });
    }
    if (seg === '' || seg === '.') continue;
    if (seg === '..' || seg.includes('/') || seg.includes('\\') || seg.includes('\0') || /^[A-Za-z]:/.test(seg)) {
      throw fail('refused', 'state.uri-leaves', { uri });
    }
    segments.push(seg);
  }
  const full = path.join(dir, ...segments);
  if (!isInside(full, dir)) throw fail('refused', 'state.uri-leaves', { uri });
  // A link inside the state dir could point anywhere: compare real paths of what exists.
  const realDir = realpathOr(dir);
  const realFull = realpathOfExisting(full);
  if (realDir && !isInside(realFull, realDir)) {
    throw fail('refused', 'state.uri-link-outside', { uri });
  }
  return { uri, id, path: full, exists: fs.existsSync(full) };
}

function realpathOr(p: string): string | null {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return null;
  }
}

/** Real path of the deepest existing ancestor, with the missing tail appended. */
export function realpathOfExisting(p: string): string {
  let cur = path.resolve(p);
  const tail: string[] = [];
  for (;;) {
    const real = realpathOr(cur);
    if (real) return tail.length ? path.join(real, ...tail.reverse()) : real;
    const parent = path.dirname(cur);
    if (parent === cur) return path.resolve(p);
    tail.push(path.basename(cur));
    cur = parent;
  }
}

export interface StateDirInfo {
  id: string;
  dir: string;
  files: number;
  bytes: number;
}

/** Every state dir on disk with its size (links inside are counted, never followed). */
export function listStateDirs(home: string): StateDirInfo[] {
  const root = stateRoot(home);
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch {
    return [];
  }
  const out: StateDirInfo[] = [];
  for (const id of names.sort()) {
    const dir = path.join(root, id);
    if (!isValidStateId(id) || !fs.lstatSync(dir).isDirectory()) continue;
    let files = 0;
    let bytes = 0;
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else {
          files++;
          bytes += fs.lstatSync(p).size;
        }
      }
    };
    walk(dir);
    out.push({ id, dir, files, bytes });
  }
  return out;
}
