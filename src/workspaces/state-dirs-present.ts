import fs from 'node:fs';
import { stateRoot } from '../state/state-dirs.js';

// Which state dirs exist, for a launch that would otherwise stat each skill's (launch.ts).

/**
 * The plain folders in `<home>/skills-state`, so a launch does not stat each skill's state dir: one
 * stat of skills-state, and a listing only when an entry may have come or gone since the last one
 * (its mtime or inode moved, or it was listed within the same few seconds as its last change, when
 * a later change could keep the same mtime). Whatever is not listed goes through `ensureStateDir`.
 */
const presentCache = new Map<string, { key: string; names: Set<string> }>();
const EMPTY = new Set<string>();
const RACY_MS = 2000;

export function stateDirsPresent(home: string): Set<string> {
  const root = stateRoot(home);
  const st = fs.statSync(root, { throwIfNoEntry: false });
  if (!st?.isDirectory()) {
    presentCache.delete(root);
    return EMPTY;
  }
  const key = `${st.dev}:${st.ino}:${st.mtimeMs}`;
  const hit = presentCache.get(root);
  if (hit && hit.key === key) return hit.names;
  const names = new Set<string>();
  const started = Date.now();
  try {
    for (const d of fs.readdirSync(root, { withFileTypes: true })) if (d.isDirectory()) names.add(d.name);
  } catch {
    return EMPTY;
  }
  if (st.mtimeMs < started - RACY_MS) {
    if (presentCache.size > 16) presentCache.clear();
    presentCache.set(root, { key, names });
  } else presentCache.delete(root);
  return names;
}
