import {
  formatMessage,
  type AssistantSkillRef,
  type AssistantSkillView,
  type CatalogEntry,
  type CatalogQuery,
  type MessageRef,
  type Root,
  type SkillPick,
} from '../contract/index.js';
import { fail } from '../errors.js';
import type { ServiceContext } from '../service-context.js';
import { getCatalog } from '../catalog/index.js';

/** Where assistants look skills up: the roots and every entry (shadowed ones too) for a query. */
export interface SkillSource {
  catalog(query: CatalogQuery): Promise<{ roots: Root[]; entries: CatalogEntry[] }>;
}

/** The engine's catalog as a SkillSource. */
export function catalogSource(ctx: ServiceContext): SkillSource {
  return {
    catalog: async (query) => getCatalog(ctx).list(query),
  };
}

function describeRoots(entries: CatalogEntry[]): string {
  return [...new Set(entries.map((e) => e.provenance.rootId))].join(', ');
}

/** Which entry a name means: the one agents load (not shadowed), else the strongest. */
function effective(candidates: CatalogEntry[]): CatalogEntry | undefined {
  return candidates.find((e) => !e.shadowedBy) ?? candidates[0];
}

/**
 * Turn picks into refs. A pick matches an entry by name (exactly, else case-insensitively when
 * that is unambiguous) or by entry id (`<rootId>/<dir>`). Every unknown pick is collected so the
 * caller hears about all of them at once; then nothing is attached.
 */
export function pickSkills(
  entries: CatalogEntry[],
  picks: SkillPick[],
  defaultRootId: string | undefined,
  now: string,
): Array<{ ref: AssistantSkillRef; entry: CatalogEntry }> {
  const unknown: string[] = [];
  const wrongRoot: MessageRef[] = [];
  const refs: Array<{ ref: AssistantSkillRef; entry: CatalogEntry }> = [];
  for (const pick of picks) {
    const name = typeof pick === 'string' ? pick : pick.name;
    const rootId = (typeof pick === 'string' ? undefined : pick.rootId) ?? defaultRootId;
    let candidates = entries.filter((e) => e.name === name);
    if (!candidates.length) candidates = entries.filter((e) => e.id === name);
    if (!candidates.length) {
      const folded = entries.filter((e) => e.name.toLowerCase() === name.toLowerCase());
      if (new Set(folded.map((e) => e.name)).size === 1) candidates = folded;
    }
    if (!candidates.length) {
      unknown.push(name);
      continue;
    }
    let chosen: CatalogEntry | undefined;
    if (rootId !== undefined) {
      chosen = candidates.find((e) => e.provenance.rootId === rootId);
      if (!chosen) {
        wrongRoot.push({ key: 'assistants.wrong-root', params: { name, root: rootId, found: describeRoots(candidates) } });
        continue;
      }
    } else {
      chosen = effective(candidates);
    }
    const ref: AssistantSkillRef = {
      name: chosen!.name,
      rootId: chosen!.provenance.rootId,
      rootKind: chosen!.provenance.rootKind,
      rootPath: chosen!.provenance.rootPath,
      digest: chosen!.digest,
      attachedAt: now,
    };
    refs.push({ ref, entry: chosen! });
  }
  if (unknown.length || wrongRoot.length) {
    const reasons: MessageRef[] = [];
    if (unknown.length)
      reasons.push({ key: unknown.length === 1 ? 'assistants.unknown-skill' : 'assistants.unknown-skills', params: { skills: unknown } });
    reasons.push(...wrongRoot);
    const details = { unknown, wrongRoot: wrongRoot.map((r) => formatMessage(r)) };
    throw fail('not-found', 'assistants.nothing-attached', { reasons }, details);
  }
  // The same name picked twice in one call: the last pick wins, once.
  const byName = new Map(refs.map((r) => [r.ref.name, r]));
  return [...byName.values()];
}

/**
 * Resolve refs against the catalog. Match order: same name in the same root path, then the same
 * root id, then (relocated) wherever agents would load that name now; otherwise missing.
 */
export async function resolveSkills(
  source: SkillSource,
  refs: AssistantSkillRef[],
  project: string | undefined,
): Promise<AssistantSkillView[]> {
  if (!refs.length) return [];
  // Skills picked from a project or a one-off extra root stay reachable: query their roots again.
  const roots = [
    ...new Set(refs.filter((r) => (r.rootKind === 'project' || r.rootKind === 'extra') && r.rootPath).map((r) => r.rootPath!)),
  ];
  let catalog = await source.catalog({ project });
  const covered = new Set(catalog.roots.map((r) => r.path));
  const uncovered = roots.filter((r) => !covered.has(r));
  if (uncovered.length) catalog = await source.catalog({ project, roots: uncovered });
  // By name once: a library of thousands of skills is not scanned once per attached skill.
  const byName = new Map<string, CatalogEntry[]>();
  for (const e of catalog.entries) {
    const list = byName.get(e.name);
    if (list) list.push(e);
    else byName.set(e.name, [e]);
  }
  return refs.map((ref) => {
    const named = byName.get(ref.name) ?? [];
    const exact =
      (ref.rootPath && named.find((e) => e.provenance.rootPath === ref.rootPath)) ||
      named.find((e) => e.provenance.rootId === ref.rootId && e.provenance.rootKind === ref.rootKind);
    const entry = exact || effective(named);
    return {
      ...ref,
      missing: !entry,
      entry: entry ?? null,
      relocated: Boolean(entry && !exact),
      changed: Boolean(entry && ref.digest && entry.digest !== ref.digest),
    };
  });
}
