import { asText, merge3 } from '../sources/merge.js';
import { unitOf, json } from './layout.js';
import type { FlatTree } from './repo.js';

// The merge of two machines' trees against their common base, unit by unit (a skill, an
// assistant, an approval, the settings). A unit changed on one side takes that side. A skill
// changed on both: file by file, a file changed on both goes through the sources' 3-way text
// merge; one side deleting what the other changed is a conflict, never a silent delete. JSON
// records (assistants, settings) merge field by field; an assistant's skills merge as a set.
// Approvals changed on both sides keep this machine's: trust is never taken over a local choice.

export type Entry = { mode: string; oid: string; size: number };
export interface Conflict {
  unit: string;
  path: string;
  kind: 'text' | 'delete-change' | 'binary' | 'field';
  /** The merged text with conflict markers (text conflicts), as the sources' conflict view shows it. */
  text?: string;
}
export interface MergeOut {
  /** Result: an entry, or text still to be written as a blob. */
  tree: Map<string, Entry | { text: string }>;
  conflicts: Conflict[];
}

type Blobs = (oids: string[]) => Promise<Map<string, Buffer>>;

const same = (a?: Entry, b?: Entry) => (a?.oid ?? null) === (b?.oid ?? null) && (a?.mode ?? null) === (b?.mode ?? null);

function byUnit(...trees: FlatTree[]): Map<string, Set<string>> {
  const units = new Map<string, Set<string>>();
  for (const t of trees)
    for (const p of t.keys()) {
      const u = unitOf(p);
      if (!units.has(u)) units.set(u, new Set());
      units.get(u)!.add(p);
    }
  return units;
}

/** Field-by-field merge of two JSON objects against a base; arrays of skills merge as sets. */
export function mergeFields(base: Record<string, unknown>, ours: Record<string, unknown>, theirs: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  const conflicts: string[] = [];
  const eq = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const k of new Set([...Object.keys(base), ...Object.keys(ours), ...Object.keys(theirs)])) {
    const [b, o, t] = [base[k], ours[k], theirs[k]];
    if (eq(o, t) || eq(b, t)) out[k] = o;
    else if (eq(b, o)) out[k] = t;
    else if (k === 'skills' && Array.isArray(o) && Array.isArray(t)) out[k] = mergeSet(Array.isArray(b) ? b : [], o, t);
    else if (k === 'updatedAt') out[k] = String(o) > String(t) ? o : t;
    else {
      out[k] = o;
      conflicts.push(k);
    }
    if (out[k] === undefined) delete out[k];
  }
  return { value: out, conflicts };
}

/** Items added on either side are kept, items removed on either side go, order of ours then theirs. */
function mergeSet(base: unknown[], ours: unknown[], theirs: unknown[]): unknown[] {
  const key = (x: unknown) => JSON.stringify(x);
  const b = new Set(base.map(key));
  const o = new Set(ours.map(key));
  const t = new Set(theirs.map(key));
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (const x of [...ours, ...theirs]) {
    const k = key(x);
    if (seen.has(k)) continue;
    seen.add(k);
    const removed = b.has(k) && (!o.has(k) || !t.has(k));
    if (!removed) out.push(x);
  }
  return out;
}

function parse(buf: Buffer | undefined): Record<string, unknown> {
  try {
    const v: unknown = buf ? JSON.parse(buf.toString('utf8')) : {};
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export async function mergeTrees(base: FlatTree, ours: FlatTree, theirs: FlatTree, blobs: Blobs): Promise<MergeOut> {
  const tree: MergeOut['tree'] = new Map();
  const conflicts: Conflict[] = [];
  const both: Array<{ unit: string; paths: string[] }> = [];
  for (const [unit, paths] of byUnit(base, ours, theirs)) {
    const list = [...paths];
    const oursChanged = list.some((p) => !same(base.get(p), ours.get(p)));
    const theirsChanged = list.some((p) => !same(base.get(p), theirs.get(p)));
    const side = !theirsChanged ? ours : !oursChanged ? theirs : null;
    if (side) {
      for (const p of list) if (side.get(p)) tree.set(p, side.get(p)!);
    } else both.push({ unit, paths: list });
  }
  const need = both.flatMap((u) =>
    u.paths
      .flatMap((p) => [base.get(p), ours.get(p), theirs.get(p)])
      .filter((e) => !!e)
      .map((e) => e!.oid),
  );
  const text = await blobs(need);
  const read = (e?: Entry) => (e ? text.get(e.oid) : undefined);
  for (const { unit, paths } of both) {
    if (unit.startsWith('skill:')) {
      const name = unit.slice(6);
      const gone = (t: FlatTree) => !paths.some((p) => t.has(p));
      // one side took the whole skill away, the other changed it: the user decides
      if (gone(ours) || gone(theirs)) {
        conflicts.push({ unit, path: `skills/${name}`, kind: 'delete-change' });
        for (const p of paths) if (ours.get(p)) tree.set(p, ours.get(p)!);
        continue;
      }
      for (const p of paths) {
        const [b, o, t] = [base.get(p), ours.get(p), theirs.get(p)];
        if (same(o, t) || same(b, t)) {
          if (o) tree.set(p, o);
        } else if (same(b, o)) {
          if (t) tree.set(p, t);
        } else if (!o || !t) {
          conflicts.push({ unit, path: p, kind: 'delete-change' });
          if (o) tree.set(p, o);
        } else {
          const [bt, ot, tt] = [b ? asText(read(b)!) : '', asText(read(o)!), asText(read(t)!)];
          if (bt === null || ot === null || tt === null) {
            conflicts.push({ unit, path: p, kind: 'binary' });
            tree.set(p, o);
            continue;
          }
          const m = merge3(bt, ot, tt);
          if (m.clean) tree.set(p, { text: m.text });
          else {
            conflicts.push({ unit, path: p, kind: 'text', text: m.text });
            tree.set(p, o);
          }
        }
      }
    } else if (unit.startsWith('approvals/')) {
      // both changed: this machine's approval (or its revocation) stands
      if (ours.get(unit)) tree.set(unit, ours.get(unit)!);
    } else {
      const [b, o, t] = [base.get(unit), ours.get(unit), theirs.get(unit)];
      if (!o || !t) {
        conflicts.push({ unit, path: unit, kind: 'delete-change' });
        if (o) tree.set(unit, o);
        continue;
      }
      const m = mergeFields(parse(read(b)), parse(read(o)), parse(read(t)));
      tree.set(unit, { text: json(m.value) });
      for (const f of m.conflicts) conflicts.push({ unit, path: `${unit}#${f}`, kind: 'field' });
    }
  }
  return { tree, conflicts };
}
