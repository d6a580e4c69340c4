import fs from 'node:fs';
import path from 'node:path';
import type { MessageRef } from '../contract/index.js';
import type { DeployCell, DeployEntry, DeployFolder, DeployState, DeployStatus } from './types.js';
import type { ScopeRecord, Placed } from './record.js';
import { chooseTargets, readersByFolder, type DeployScope, type Desired, type Placement } from './targets.js';
import { treeDigest } from '../library/tree.js';

// What is on disk in every folder the scope's agents read, compared with the record and the
// desired state. Fast on purpose (it runs on every change the watcher sees): one readdir per
// folder, then one call per entry (readlink for a link, lstat for a folder) and one stat of a
// copy's SKILL.md; a copy's full digest only when its quick signature changed (or `deep`).

const ORDER: DeployState[] = ['broken', 'drifted', 'missing', 'duplicate', 'shadowed', 'foreign', 'in-sync'];
export const worse = (a: DeployState, b: DeployState): DeployState => (ORDER.indexOf(a) <= ORDER.indexOf(b) ? a : b);

/**
 * The quick signature of a copy: its SKILL.md's identity, size and times (one stat). An edit that
 * changes only another file of the copy is found by `deep` (status --deep, repair), which hashes.
 */
export function copySignature(dir: string): string | null {
  try {
    const f = fs.statSync(dir + path.sep + 'SKILL.md');
    return `${f.ino}:${f.size}:${f.mtimeMs}:${f.ctimeMs}`;
  } catch {
    return null;
  }
}

/** Library skill folder names (each entry of the library folder that is not hidden). */
export function librarySkills(libraryDir: string): Set<string> {
  try {
    return new Set(fs.readdirSync(libraryDir).filter((n) => !n.startsWith('.')));
  } catch {
    return new Set();
  }
}

/** Why SkillDock will not write in a folder, or null. */
export function folderProblem(folder: string, agents: string[]): MessageRef | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(folder);
  } catch {
    return null; // made by the apply that needs it
  }
  const params = { folder, agents };
  if (st.isSymbolicLink()) return { key: 'deploy.folder-link', params: { ...params, target: fs.readlinkSync(folder) } };
  if (!st.isDirectory()) return { key: 'deploy.folder-not-dir', params };
  try {
    fs.accessSync(folder, fs.constants.W_OK);
  } catch {
    return { key: 'deploy.folder-not-writable', params };
  }
  return null;
}

export interface StatusInput {
  scope: DeployScope;
  record: ScopeRecord;
  /** Library skills that exist (a desired skill that is not there is not placed: deleted, in the trash). */
  library?: Set<string>;
  deep?: boolean;
}

const chosen = new WeakMap<Desired, { key: string; result: ReturnType<typeof chooseTargets> }>();

/**
 * The placements the desired state asks for, among skills that are in the library. Remembered per
 * desired object (the record is parsed once per version of its file) while the library's names and
 * the scope's folders stay the same: status runs on every change the watcher sees.
 */
export function wantedPlacements(scope: DeployScope, desired: Desired, library: Set<string>) {
  const apart = otherFilesystem(scope);
  const key = `${JSON.stringify(scope.agents)}\0${[...apart].join('\0')}\0${[...library].join('\0')}`;
  const hit = chosen.get(desired);
  if (hit?.key === key) return hit.result;
  const present: Desired = {};
  for (const [skill, row] of Object.entries(desired)) if (library.has(skill)) present[skill] = row;
  const chose = chooseTargets(scope, present);
  // a link from another filesystem to the library would break when that disk is not mounted (and
  // some tools do not follow links across devices): a copy is placed there instead, and said so
  const result = {
    ...chose,
    placements: chose.placements.map((p) => (p.mode === 'link' && apart.has(p.folder) ? { ...p, mode: 'copy' as const, across: true } : p)),
  };
  chosen.set(desired, { key, result });
  return result;
}

/** The device of a path's nearest existing folder (the folder itself may not be made yet). */
function deviceOf(p: string): number | null {
  for (let d = p; ; d = path.dirname(d)) {
    try {
      return fs.statSync(d).dev;
    } catch {
      if (path.dirname(d) === d) return null;
    }
  }
}

/** The scope's target folders on another filesystem than the library (compared by st_dev). */
export function otherFilesystem(scope: DeployScope): Set<string> {
  const lib = deviceOf(scope.libraryDir);
  const out = new Set<string>();
  if (lib === null) return out;
  for (const a of scope.agents)
    for (const f of a.targets) {
      const dev = deviceOf(f);
      if (dev !== null && dev !== lib) out.add(f);
    }
  return out;
}

/** What the user is told when links were asked for in folders that get copies (one per folder). */
export function copiesInstead(folder: string, agents: string[]): MessageRef {
  return { key: 'deploy.other-filesystem', params: { folder, agents } };
}

function judgeManaged(
  p: string,
  rec: Placed,
  kind: DeployEntry['kind'],
  linkTarget: string | undefined,
  library: Set<string>,
  deep: boolean,
) {
  if (rec.mode === 'link') {
    if (kind !== 'link') return { state: 'drifted' as const, reason: 'replaced' as const };
    if (linkTarget !== rec.linkTarget) return { state: 'drifted' as const, reason: 'link-elsewhere' as const };
    if (!library.has(rec.skill)) return { state: 'broken' as const, reason: 'dangling' as const };
    return { state: 'in-sync' as const };
  }
  if (kind !== 'dir') return { state: 'drifted' as const, reason: 'replaced' as const };
  const sig = deep ? null : copySignature(p);
  if (sig !== null && sig === rec.sig) return { state: 'in-sync' as const };
  let digest: string | null;
  try {
    digest = treeDigest(p);
  } catch {
    digest = null;
  }
  if (digest !== rec.digest) return { state: 'drifted' as const, reason: 'edited' as const };
  return { state: 'in-sync' as const };
}

/** Read one folder: every entry not hidden, with what it is. */
function readFolder(folder: string): Array<{ name: string; kind: DeployEntry['kind']; linkTarget?: string }> {
  let dirents: fs.Dirent[];
  try {
    dirents = fs.readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: Array<{ name: string; kind: DeployEntry['kind']; linkTarget?: string }> = [];
  for (const d of dirents) {
    if (d.name.startsWith('.')) continue;
    if (d.isSymbolicLink()) {
      let linkTarget: string | undefined;
      try {
        linkTarget = fs.readlinkSync(folder + path.sep + d.name);
      } catch {
        continue; // gone between the listing and now
      }
      out.push({ name: d.name, kind: 'link', linkTarget });
    } else out.push({ name: d.name, kind: d.isDirectory() ? 'dir' : 'file' });
  }
  return out;
}

/** A foreign entry: a skill, or broken (dangling link, folder without SKILL.md). */
function judgeForeign(p: string, kind: DeployEntry['kind']) {
  if (kind === 'file') return null; // a README or the like: not a skill, not ours
  try {
    fs.statSync(path.join(p, 'SKILL.md'));
    return { state: 'foreign' as const };
  } catch {
    let dangling = false;
    if (kind === 'link') dangling = !fs.existsSync(p);
    return { state: 'broken' as const, reason: dangling ? ('dangling' as const) : ('no-skill-md' as const) };
  }
}

const placedMaps = new WeakMap<ScopeRecord['placed'], Map<string, Placed>>();
/** The record's placed entries as a Map, made once per parsed record. */
function placedMap(placed: ScopeRecord['placed']): Map<string, Placed> {
  let m = placedMaps.get(placed);
  if (!m) placedMaps.set(placed, (m = new Map(Object.entries(placed))));
  return m;
}

/** Every entry in every folder the scope's agents read, the matrix, and the folders' problems. */
export function statusOf(input: StatusInput): DeployStatus {
  const { scope, record } = input;
  const library = input.library ?? librarySkills(scope.libraryDir);
  const readers = readersByFolder(scope);
  const wanted = wantedPlacements(scope, record.desired, library);
  const wantedAt = new Map(wanted.placements.map((w) => [w.path, w]));
  const placed = placedMap(record.placed);
  const entries: DeployEntry[] = [];
  const seen = new Set<string>();
  const folders: DeployFolder[] = [];
  const apart = otherFilesystem(scope);
  for (const [folder, agents] of readers) {
    const listed = readFolder(folder);
    folders.push({
      path: folder,
      agents,
      exists: listed.length > 0 || fs.existsSync(folder),
      problem: folderProblem(folder, agents),
      ...(apart.has(folder) ? { notice: copiesInstead(folder, agents) } : {}),
    });
    for (const e of listed) {
      const p = folder + path.sep + e.name; // folder is absolute and normalized; join would re-normalize 3,000 times
      seen.add(p);
      const rec = placed.get(p);
      const w = wantedAt.get(p);
      const judged = rec ? judgeManaged(p, rec, e.kind, e.linkTarget, library, !!input.deep) : judgeForeign(p, e.kind);
      if (!judged) continue;
      const entry: DeployEntry = { path: p, folder, name: e.name, state: judged.state, managed: !!rec, kind: e.kind, agents };
      if ('reason' in judged) entry.reason = judged.reason;
      if (e.linkTarget !== undefined) entry.linkTarget = e.linkTarget;
      if (rec) entry.mode = rec.mode;
      if (rec && w && entry.state === 'in-sync' && w.mode !== rec.mode)
        Object.assign(entry, { state: 'drifted', reason: 'mode', mode: w.mode });
      entries.push(entry);
    }
  }
  const missing = (p: string, folder: string, mode: 'link' | 'copy', managed: boolean): DeployEntry => ({
    path: p,
    folder,
    name: path.basename(p),
    state: 'missing',
    reason: 'missing',
    managed,
    kind: 'none',
    mode,
    agents: readers.get(folder) ?? [],
  });
  for (const w of wanted.placements) if (!seen.has(w.path)) entries.push(missing(w.path, w.folder, w.mode, !!record.placed[w.path]));
  for (const [p, rec] of placed) {
    if (!seen.has(p) && !wantedAt.has(p) && library.has(rec.skill)) entries.push(missing(p, rec.folder, rec.mode, true));
  }
  markReadTwice(scope, entries);
  const cells = matrix(scope, record.desired, library, wanted.placements, entries);
  const counts: Record<string, number> = {};
  for (const e of entries) counts[e.state] = (counts[e.state] ?? 0) + 1;
  return { agents: scope.agents.map((a) => ({ id: a.id, name: a.name, folders: a.targets })), folders, entries, cells, counts };
}

function group<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

/** A name an agent reads from two of its folders: listed twice (duplicate) or one hides the other (shadowed). */
function markReadTwice(scope: DeployScope, entries: DeployEntry[]): void {
  const byFolder = new Map<string, DeployEntry[]>();
  for (const e of entries) if (e.kind !== 'none') group(byFolder, e.folder, e);
  for (const a of scope.agents) {
    const first = new Map<string, DeployEntry>();
    for (const f of a.reads) {
      for (const e of byFolder.get(f) ?? []) {
        const before = first.get(e.name);
        if (!before) {
          first.set(e.name, e);
          continue;
        }
        if (e.state !== 'in-sync' && e.state !== 'foreign') continue;
        // two entries SkillDock placed for one skill (OpenCode reading ~/.claude and ~/.agents): the
        // agent keeps one of two identical skills; nothing to flag
        if (before.managed && e.managed && a.sameName !== 'all-listed' && a.sameName !== null) continue;
        const twice = a.sameName === 'all-listed';
        e.state = twice ? 'duplicate' : 'shadowed';
        e.reason = twice ? 'read-twice' : 'shadowed-by';
        e.other = before.path;
      }
    }
  }
}

function matrix(scope: DeployScope, desired: Desired, library: Set<string>, placements: Placement[], entries: DeployEntry[]): DeployCell[] {
  const byName = new Map<string, DeployEntry[]>();
  for (const e of entries) group(byName, e.name, e);
  const bySkill = new Map<string, Placement[]>();
  for (const p of placements) group(bySkill, p.skill, p);
  const cells: DeployCell[] = [];
  for (const skill of [...library].sort()) {
    for (const a of scope.agents) {
      const serving = (bySkill.get(skill) ?? []).find((p) => a.reads.includes(p.folder));
      let state: DeployState | null = null;
      for (const e of byName.get(skill) ?? []) if (a.reads.includes(e.folder)) state = state ? worse(state, e.state) : e.state;
      cells.push({
        skill,
        agent: a.id,
        wanted: desired[skill]?.[a.id] ?? null,
        on: !!serving,
        via: serving && !serving.for.includes(a.id) ? serving.for : [],
        state,
      });
    }
  }
  return cells;
}
