import type { AgentView, Catalog, CatalogEntry, MessageRef, Root, SkillRisk } from '../../../../src/contract/index';

/** Something the engine said: English `message`, and `msg` for the UI to word (i18n/engine-text). */
export interface EngineWords {
  message: string;
  msg?: MessageRef;
}

/**
 * `errors` and `warnings` count the security scan too (a high finding is an error, a medium one a
 * warning); `security` keeps the skills with a high or medium scan finding.
 */
export type ProblemFilter = 'all' | 'errors' | 'warnings' | 'security' | 'clean';
export const PROBLEM_FILTERS: readonly ProblemFilter[] = ['all', 'errors', 'warnings', 'security', 'clean'];

/** Scan results by entry id (renderer/src/stores/risk-store.ts). */
export type RiskMap = ReadonlyMap<string, SkillRisk>;
const NO_RISKS: RiskMap = new Map();

export interface SkillFilter {
  query: string;
  rootId: string | null;
  agent: string | null;
  problems: ProblemFilter;
  shadowedOnly: boolean;
}

export const EMPTY_FILTER: SkillFilter = { query: '', rootId: null, agent: null, problems: 'all', shadowedOnly: false };

/** Lower-cased search text per entry, built once per catalog so a keystroke is a plain scan. */
export function buildIndex(entries: readonly CatalogEntry[]): string[] {
  return entries.map((e) => `${e.name}\n${e.description}`.toLowerCase());
}

/** A previous result, reused when the query only grew (typing): the new matches are a subset. */
export interface FilterResult {
  filter: SkillFilter;
  risks: RiskMap;
  indices: number[];
  entries: CatalogEntry[];
}

function narrows(prev: SkillFilter, next: SkillFilter): boolean {
  return (
    prev.rootId === next.rootId &&
    prev.agent === next.agent &&
    prev.problems === next.problems &&
    prev.shadowedOnly === next.shadowedOnly &&
    next.query.trim().toLowerCase().includes(prev.query.trim().toLowerCase())
  );
}

export function filterCatalog(
  catalog: Catalog,
  index: readonly string[],
  filter: SkillFilter,
  prev?: FilterResult | null,
  risks: RiskMap = NO_RISKS,
): FilterResult {
  const q = filter.query.trim().toLowerCase();
  const rootsById = new Map<string, Root>(catalog.roots.map((r) => [r.id, r]));
  const { entries } = catalog;
  const candidates = prev && prev.risks === risks && narrows(prev.filter, filter) ? prev.indices : null;
  const indices: number[] = [];
  const n = candidates ? candidates.length : entries.length;
  for (let k = 0; k < n; k++) {
    const i = candidates ? candidates[k] : k;
    const e = entries[i];
    if (q && !index[i].includes(q)) continue;
    if (filter.rootId && e.provenance.rootId !== filter.rootId) continue;
    if (filter.agent) {
      const root = rootsById.get(e.provenance.rootId);
      if (!root || !root.agents.includes(filter.agent)) continue;
    }
    if (filter.problems !== 'all') {
      const risk = risks.get(e.id);
      const high = risk?.high ?? 0;
      const medium = risk?.medium ?? 0;
      if (filter.problems === 'errors' && e.counts.errors + high === 0) continue;
      if (filter.problems === 'warnings' && e.counts.warnings + medium === 0) continue;
      if (filter.problems === 'security' && high + medium === 0) continue;
      if (filter.problems === 'clean' && e.counts.errors + e.counts.warnings + high + medium > 0) continue;
    }
    if (filter.shadowedOnly && !e.shadowedBy) continue;
    indices.push(i);
  }
  return { filter, risks, indices, entries: indices.map((i) => entries[i]) };
}

export function filterEntries(catalog: Catalog, index: readonly string[], filter: SkillFilter, risks?: RiskMap): CatalogEntry[] {
  return filterCatalog(catalog, index, filter, null, risks).entries;
}

/** Agent ids that read any root of the catalog, for the agent filter. */
export function catalogAgents(catalog: Catalog): string[] {
  const ids = new Set<string>();
  for (const r of catalog.roots) for (const a of r.agents) ids.add(a);
  return [...ids].sort();
}

export type AgentVerdict =
  | { kind: 'loads' }
  | { kind: 'not-read' }
  | { kind: 'shadowed'; by: string }
  | { kind: 'dropped'; reasons: EngineWords[] }
  | { kind: 'mangled'; reasons: EngineWords[] }
  | { kind: 'ambiguous'; reasons: EngineWords[] }
  | { kind: 'via-launch' };

/**
 * No agent reads the library or the built-in root directly: their skills reach an agent when an
 * assistant launches with them. For those, say so, and still say whether that agent would drop it.
 */
export function verdictFor(entry: CatalogEntry, root: Root | undefined, agent: string, view: AgentView | undefined): AgentVerdict {
  const v = verdictFromView(view, entry.id) ?? agentVerdict(entry, root, agent);
  if (v.kind !== 'not-read' || !root || (root.kind !== 'library' && root.kind !== 'builtin')) return v;
  const atLaunch = agentVerdict({ ...entry, shadowedBy: undefined }, { ...root, agents: [agent] }, agent);
  return atLaunch.kind === 'loads' ? { kind: 'via-launch' } : atLaunch;
}

export function verdictFromView(view: AgentView | undefined, entryId: string): AgentVerdict | null {
  if (!view) return null;
  const s = view.skills.find((x) => x.entryId === entryId);
  if (!s) return { kind: 'not-read' };
  const reasons: EngineWords[] = s.reasons;
  switch (s.status) {
    case 'loaded':
      return { kind: 'loads' };
    case 'shadowed':
      return { kind: 'shadowed', by: s.shadowedBy ?? '' };
    case 'dropped':
      return { kind: 'dropped', reasons };
    case 'mangled':
      return { kind: 'mangled', reasons };
    case 'ambiguous':
      return { kind: 'ambiguous', reasons };
  }
}

/**
 * How one agent treats this skill, from what the catalog already knows: whether the agent reads the
 * skill's root, whether a stronger copy hides it, and findings whose `agents` name it (an error means
 * the agent drops it, a warning that it loads it changed).
 */
export function agentVerdict(entry: CatalogEntry, root: Root | undefined, agent: string): AgentVerdict {
  if (!root || !root.agents.includes(agent)) return { kind: 'not-read' };
  const hits = entry.diagnostics.filter((d) => d.agents?.includes(agent));
  const errors: EngineWords[] = hits.filter((d) => d.severity === 'error');
  if (errors.length) return { kind: 'dropped', reasons: errors };
  if (entry.shadowedBy) return { kind: 'shadowed', by: entry.shadowedBy };
  const warnings: EngineWords[] = hits.filter((d) => d.severity !== 'error');
  if (warnings.length) return { kind: 'mangled', reasons: warnings };
  return { kind: 'loads' };
}
