import path from 'node:path';
import type { CatalogEntry, Counts, Diagnostic, Root } from '../contract/index.js';
import { makeDiagnostic } from '../skills/rules.js';
import type { SkillAnalysis } from '../skills/analyze.js';
import type { Registry } from '../agents/registry.js';
import type { Child } from './scan.js';
import type { Listed, WalkOptions, WalkResult } from '../skills/walk.js';

// From one skill's analysis to its catalog entry, and the catalog-level rules over many entries
// (shadowing across roots, duplicates inside one root).

export type AnalyzeFn = (
  dir: string,
  options: {
    resourcesDir: string;
    dirName?: string;
    digest?: boolean;
    listing?: Listed[];
    onStat?: WalkOptions['onStat'];
    walked?: WalkResult;
  },
) => Promise<SkillAnalysis>;

let analyzeSkill: typeof import('../skills/analyze.js').analyzeSkill | undefined;
/**
 * The real analyser, loaded with the first skill read (the SKILL.md parser and its YAML library):
 * a listing answered from a valid index reads no skill and never loads it.
 */
export const defaultAnalyze: AnalyzeFn = (dir, options) =>
  // Once loaded, the analyser's own promise is handed on as is: an async wrapper would add a promise
  // and two microtask turns to each of the skills of a scan.
  analyzeSkill ? analyzeSkill(dir, options) : import('../skills/analyze.js').then((m) => (analyzeSkill ??= m.analyzeSkill)(dir, options));

export function countDiagnostics(diagnostics: Diagnostic[]): Counts {
  const counts: Counts = { errors: 0, warnings: 0, infos: 0 };
  for (const d of diagnostics) {
    if (d.severity === 'error') counts.errors++;
    else if (d.severity === 'warning') counts.warnings++;
    else counts.infos++;
  }
  return counts;
}

export function entryId(rootId: string, dirName: string): string {
  return `${rootId}/${dirName}`;
}

/** What an entry holds beyond its root and folder (all of it kept by the persistent index). */
export interface EntryFields {
  name: string;
  description: string;
  frontmatter: CatalogEntry['frontmatter'];
  digest: string;
  diagnostics: Diagnostic[];
  stateId: CatalogEntry['stateId'];
  legacyPaths: CatalogEntry['legacyPaths'];
  size: number;
  fileCount: number;
}

/** The fields of one analysed skill's entry. */
export function entryFields(child: Child, a: SkillAnalysis): EntryFields {
  return {
    name: typeof a.name === 'string' && a.name ? a.name : child.dirName,
    description: typeof a.description === 'string' ? a.description : '',
    frontmatter: a.frontmatter ?? null,
    digest: a.digest,
    diagnostics: a.diagnostics,
    stateId: a.stateId ?? null,
    legacyPaths: a.legacyPaths ?? [],
    size: a.size,
    fileCount: a.fileCount,
  };
}

/** The catalog entry of one skill (no shadowing yet: that depends on the query). */
export function makeEntry(root: Root, child: Child, f: EntryFields): CatalogEntry {
  return {
    id: entryId(root.id, child.dirName),
    name: f.name,
    dirName: child.dirName,
    description: f.description,
    frontmatter: f.frontmatter,
    provenance: {
      rootId: root.id,
      rootKind: root.kind,
      rootPath: root.path,
      dir: child.dir,
      realPath: child.realPath,
      linked: child.linked,
      ...(child.linked && child.linkTarget !== undefined ? { linkTarget: child.linkTarget } : {}),
    },
    digest: f.digest,
    diagnostics: f.diagnostics,
    counts: countDiagnostics(f.diagnostics),
    shadows: [],
    stateId: f.stateId,
    legacyPaths: f.legacyPaths,
    size: f.size,
    fileCount: f.fileCount,
  };
}

/** The catalog entry of one analysed skill. */
export function toEntry(root: Root, child: Child, a: SkillAnalysis): CatalogEntry {
  return makeEntry(root, child, entryFields(child, a));
}

/** The same entry seen through another root id (a folder reached by two queries). */
export function withRoot(entry: CatalogEntry, root: Root): CatalogEntry {
  if (entry.provenance.rootId === root.id && entry.provenance.rootKind === root.kind) return entry;
  return {
    ...entry,
    id: entryId(root.id, entry.dirName),
    provenance: { ...entry.provenance, rootId: root.id, rootKind: root.kind, rootPath: root.path },
  };
}

/** `skill-duplicate`: `name` is used again by the folders `others` in the same root. */
export function duplicateDiagnostic(name: string, others: string[], file: string, rootPath: string, registry?: Registry): Diagnostic {
  return makeDiagnostic('skill-duplicate', { says: 'message', params: { name, others, root: rootPath }, file }, registry);
}

function skillFile(e: CatalogEntry): string {
  return path.join(e.provenance.dir, 'SKILL.md');
}

/**
 * Apply precedence to entries given in root precedence order (and name order inside a root):
 * the first of a name wins; later ones are kept, marked `shadowedBy`, with `skill-shadowed`
 * (another root) or `skill-duplicate` (same root). Input entries are never mutated.
 * `registry` fills each finding's `agents` from the rule table.
 */
export function applyPrecedence(entries: CatalogEntry[], registry?: Registry): CatalogEntry[] {
  const groups = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const g = groups.get(e.name);
    if (g) g.push(i);
    else groups.set(e.name, [i]);
  });
  const out = entries.slice();
  for (const idx of groups.values()) {
    if (idx.length < 2) continue;
    const group = idx.map((i) => entries[i]);
    const winner = group[0];
    const extra = new Map<number, { diags: Diagnostic[]; shadowedBy?: string; shadows?: string[] }>();
    const note = (i: number) => {
      let n = extra.get(i);
      if (!n) extra.set(i, (n = { diags: [] }));
      return n;
    };
    // Same name twice in one root: every copy is told about the others.
    const byRoot = new Map<string, number[]>();
    for (const i of idx) {
      const r = entries[i].provenance.rootId;
      byRoot.set(r, [...(byRoot.get(r) ?? []), i]);
    }
    for (const members of byRoot.values()) {
      if (members.length < 2) continue;
      for (const i of members) {
        const others = members.filter((j) => j !== i).map((j) => entries[j].dirName);
        note(i).diags.push(duplicateDiagnostic(entries[i].name, others, skillFile(entries[i]), entries[i].provenance.rootPath, registry));
      }
    }
    for (const i of idx.slice(1)) {
      const e = entries[i];
      note(i).shadowedBy = winner.id;
      // An adopted skill is not a rival of itself: the library's link to that very folder, or its
      // copy with the same content, leaves nothing to rename or remove (issue 23 item 8). An edit
      // to either copy makes them two skills again, and the warning comes back.
      const itself = e.provenance.realPath === winner.provenance.realPath || e.digest === winner.digest;
      if (e.provenance.rootId !== winner.provenance.rootId && !itself) {
        note(i).diags.push(
          makeDiagnostic('skill-shadowed', {
            says: 'message',
            params: { winner: winner.id, dir: winner.provenance.dir },
            file: skillFile(e),
          }),
        );
      }
    }
    note(idx[0]).shadows = idx.slice(1).map((i) => entries[i].id);
    for (const [i, n] of extra) {
      const e = entries[i];
      const diagnostics = n.diags.length ? [...e.diagnostics, ...n.diags] : e.diagnostics;
      out[i] = {
        ...e,
        diagnostics,
        counts: countDiagnostics(diagnostics),
        shadows: n.shadows ?? e.shadows,
        ...(n.shadowedBy ? { shadowedBy: n.shadowedBy } : {}),
      };
    }
  }
  return out;
}
