import fs from 'node:fs';
import type { JournalChange } from '../contract/index.js';
import { writeFileAtomic } from '../store/index.js';

// A `patched-json` journal change: some keys of a small JSON data file in SkillDock's home set,
// each key's value before kept (null: absent). Reverting sets those keys back and leaves every
// other key as it is now, so undoing an older operation never undoes what a later one recorded in
// the same file (deployments.json holds every skill's deployments).

type PatchedJson = Extract<JournalChange, { kind: 'patched-json' }>;
type Obj = Record<string, unknown>;

/** A JSON pointer (RFC 6901) from its segments: `~` and `/` inside a segment are escaped. */
export function pointer(...segments: string[]): string {
  return segments.map((s) => '/' + s.replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

function segmentsOf(ptr: string): string[] {
  return ptr
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value at `ptr` (null when absent). */
export function getAt(root: unknown, ptr: string): unknown {
  let cur: unknown = root;
  for (const s of segmentsOf(ptr)) {
    if (!isObj(cur) || !Object.hasOwn(cur, s)) return null;
    cur = cur[s];
  }
  return cur ?? null;
}

/** Set the value at `ptr` (null: remove the key), making missing parent objects. */
export function setAt(root: Obj, ptr: string, value: unknown): void {
  const segs = segmentsOf(ptr);
  let cur: Obj = root;
  for (const s of segs.slice(0, -1)) {
    if (!isObj(cur[s])) {
      if (value === null) return;
      cur[s] = {};
    }
    cur = cur[s] as Obj;
  }
  const last = segs.at(-1)!;
  if (value === null) delete cur[last];
  else cur[last] = value;
}

function readJson(file: string): Obj {
  try {
    const v: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    return isObj(v) ? v : {};
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
}

/** Put the keys back as they were; returns the inverse change (their values just before). */
export function revertPatch(c: PatchedJson): PatchedJson {
  const doc = readJson(c.path);
  const now: Record<string, unknown> = {};
  for (const [ptr, value] of Object.entries(c.before)) {
    now[ptr] = structuredClone(getAt(doc, ptr));
    setAt(doc, ptr, structuredClone(value));
  }
  writeFileAtomic(c.path, JSON.stringify(doc, null, 1) + '\n');
  return { kind: 'patched-json', path: c.path, before: now };
}

/** The keys among `pointers` whose values differ between two versions, with the values before. */
export function changedKeys(before: unknown, after: unknown, pointers: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const ptr of pointers) {
    const a = getAt(before, ptr);
    if (JSON.stringify(a) !== JSON.stringify(getAt(after, ptr))) out[ptr] = structuredClone(a);
  }
  return out;
}
