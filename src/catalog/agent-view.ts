import path from 'node:path';
import type {
  AgentView,
  AgentViewSkill,
  AgentSkillStatus,
  Catalog,
  CatalogEntry,
  Diagnostic,
  MessageKey,
  MessageParams,
  MessageRef,
  Root,
} from '../contract/index.js';
import { formatMessage } from '../contract/messages-text.js';
import { expandHome, type AgentDef } from '../agents/registry.js';
import { registryRootId } from './roots.js';
import { allocateListing, environmentLocale, labelCollator, listSkill, listingOrder, type ListedSkill } from './listing.js';

// One agent's effective view of the catalog: only the roots it reads, its own rule for a name
// found twice, the skills its loader drops or mangles, and what its resident catalog costs.
// Every rule comes from the registry record; nothing here names an agent.

type Effect = 'dropped' | 'mangled' | 'none';

/** Lint codes whose effect on an agent is spelled out by one of its registry quirks. */
const QUIRKS_BY_CODE: Record<string, Array<keyof AgentDef['quirks']>> = {
  'description-too-long': ['descriptionOver1024'],
  'description-missing': ['missingDescription'],
  'metadata-not-map': ['metadataNotMap'],
  'skill-file-case': ['lowercaseSkillFile'],
  'skill-nested': ['nestedTwoLevels'],
  'frontmatter-not-first': ['bom', 'blankLineBeforeFrontmatter'],
  'name-too-long': ['nameOver64'],
  'name-missing': ['missingName'],
  'description-empty': ['emptyDescription'],
  'frontmatter-yaml': ['badYaml'],
  'description-not-string': ['descriptionNotString'],
};

/** Codes that keep a skill loaded but out of the listing the agent's model sees (the user can still invoke it). */
const HIDING_CODES = new Set(['model-invocation-disabled']);

/** The quirks a finding's variant names (a BOM, blank lines or indentation before `---`). */
function quirksOf(agent: AgentDef, d: Diagnostic): Array<keyof AgentDef['quirks']> | undefined {
  if (d.code === 'frontmatter-strict') return d.msg?.key.endsWith('.colon') ? ['colonInValue'] : undefined;
  if (d.code !== 'frontmatter-not-first') return QUIRKS_BY_CODE[d.code];
  const key = d.msg?.key ?? '';
  if (key.endsWith('.bom')) return ['bom'];
  if (key.endsWith('.indentation') && agent.quirks.indentedFrontmatter !== undefined) return ['indentedFrontmatter'];
  return ['blankLineBeforeFrontmatter'];
}
const DROP_VALUES = new Set(['dropped', 'error', 'ignored']);
const KEEP_VALUES = new Set(['ok', 'kept', 'found', 'lenient', 'coerced']);

/** Codes whose effect does not follow from severity: the skill loads, just not as written. */
const MANGLING_CODES = new Set(['name-dir-mismatch', 'description-budget', 'frontmatter-strict', 'frontmatter-dashes-in-value']);

/** Loader rules that drop a skill whatever a diagnostic's `agents` says. */
const LOADER_RULES: Array<{ code: string; drops: (a: AgentDef) => boolean }> = [
  { code: 'skill-dot-dir', drops: (a) => a.dotDirs === 'skipped' },
  { code: 'skill-file-symlink', drops: (a) => a.symlinkedSkillFile === 'ignored' },
];

/** Without a SKILL.md it can read, or out of its reach, an agent with a measured listing skips a skill. */
const UNLISTABLE_CODES = new Set(['skill-file-missing', 'skill-file-case', 'skill-nested', 'link-ignored']);

/**
 * For an agent with a measured listing: a skill its findings would drop is still listed when none
 * of them keeps the loader from reading its SKILL.md (the CLI then words it from what it can read).
 */
export function listedDespiteFindings(agent: AgentDef, reasons: AgentViewSkill['reasons']): boolean {
  return !reasons.some((r) => UNLISTABLE_CODES.has(r.code) || LOADER_RULES.some((l) => l.code === r.code && l.drops(agent)));
}

/** Catalog-level codes that follow SkillDock's precedence, not the agent's. */
const CATALOG_CODES = new Set(['skill-shadowed', 'skill-duplicate']);

function effectOf(agent: AgentDef, d: Diagnostic): Effect {
  const quirks = quirksOf(agent, d);
  if (quirks) {
    const values = quirks.map((q) => agent.quirks[q]).filter((v): v is string => typeof v === 'string');
    if (values.some((v) => DROP_VALUES.has(v))) return 'dropped';
    if (values.length && values.every((v) => KEEP_VALUES.has(v))) return 'none';
    if (values.length) return 'mangled';
  }
  if (MANGLING_CODES.has(d.code)) return 'mangled';
  return d.severity === 'error' ? 'dropped' : 'mangled';
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Characters one skill costs in the agent's resident catalog (identifier + description fields). */
function catalogCost(agent: AgentDef, e: CatalogEntry, identifier: string): number {
  const budget = agent.quirks.descriptionBudget;
  const fields = budget?.includes ?? ['description'];
  let text = 0;
  for (const f of fields) {
    const v = f === 'description' ? e.description : e.frontmatter?.[f];
    if (typeof v !== 'string') continue;
    let n = codePoints(v);
    if (f === 'description' && agent.quirks.descriptionOver1024 === 'cut') n = Math.min(n, 1024);
    text += n;
  }
  if (budget) text = Math.min(text, budget.chars);
  return codePoints(identifier) + text;
}

/** The agent's roots in the order its rule reads them, with their tier. */
function agentRoots(agent: AgentDef, roots: Root[]): Array<{ root: Root; tier: 0 | 1; order: number }> {
  const rank = new Map<string, number>();
  agent.userDirs.forEach((d, i) => rank.set(registryRootId('user', d), i));
  agent.projectDirs.forEach((d, i) => rank.set(registryRootId('project', d), 1000 + i));
  return roots
    .filter((r) => r.agents.includes(agent.id) && (r.kind === 'user' || r.kind === 'project'))
    .map((root) => ({ root, tier: (root.kind === 'user' ? 0 : 1) as 0 | 1, order: rank.get(root.id) ?? 2000 + root.precedence }))
    .sort((a, b) => a.order - b.order);
}

/** A reason as a code, a message key with parameters, and its English. */
function reason(code: string, key: MessageKey, params: MessageParams): AgentViewSkill['reasons'][number] {
  const msg = { key, params };
  return { code, message: formatMessage(msg), msg };
}

/** How one agent's loader treats a skill with these findings: loaded, mangled or dropped, and why. */
export function loaderVerdict(
  agent: AgentDef,
  diagnostics: Diagnostic[],
  linked: boolean,
): { status: AgentSkillStatus; reasons: AgentViewSkill['reasons'] } {
  const reasons: AgentViewSkill['reasons'] = [];
  let status: AgentSkillStatus = 'loaded';
  for (const d of diagnostics) {
    if (CATALOG_CODES.has(d.code)) continue;
    // A known extension field (`when_to_use` for Claude Code): the agents it names read it, the others ignore it.
    if (d.code === 'field-unknown' && d.severity === 'info') continue;
    if (HIDING_CODES.has(d.code)) {
      if (d.agents?.includes(agent.id))
        reasons.push(d.msg ? { code: d.code, message: d.message, msg: d.msg } : { code: d.code, message: d.message });
      continue;
    }
    const rule = LOADER_RULES.find((r) => r.code === d.code);
    const effect: Effect = rule ? (rule.drops(agent) ? 'dropped' : 'none') : d.agents?.includes(agent.id) ? effectOf(agent, d) : 'none';
    if (effect === 'none') continue;
    reasons.push(d.msg ? { code: d.code, message: d.message, msg: d.msg } : { code: d.code, message: d.message });
    if (effect === 'dropped') status = 'dropped';
    else if (status === 'loaded') status = 'mangled';
  }
  if (linked && agent.symlinkedSkillDir === 'ignored') {
    status = 'dropped';
    reasons.push(reason('link-ignored', 'agent.reason.link-ignored', { agent: agent.name }));
  }
  return { status, reasons };
}

/** The SKILL.md text of an entry, or null when it cannot be read. */
export type ReadSkillFile = (entry: CatalogEntry) => string | null;

export function buildAgentView(
  agent: AgentDef,
  catalog: Catalog,
  nested: Array<{ dir: string; rootId: string }>,
  readSkillFile?: ReadSkillFile,
  userHome?: string,
): AgentView {
  const model = readSkillFile ? agent.listing : undefined;
  const texts = new Map<string, string | null>();
  const read = agentRoots(agent, catalog.roots);
  const tierOf = new Map(read.map((r) => [r.root.id, r]));
  const skills: AgentViewSkill[] = [];
  const entries = catalog.entries
    .filter((e) => tierOf.has(e.provenance.rootId))
    .sort((a, b) => tierOf.get(a.provenance.rootId)!.order - tierOf.get(b.provenance.rootId)!.order);
  const byEntry = new Map<string, CatalogEntry>();

  for (const e of entries) {
    byEntry.set(e.id, e);
    const identifier = agent.identifier === 'dir' ? e.dirName : e.name;
    const verdict = loaderVerdict(agent, e.diagnostics, e.provenance.linked);
    const reasons = verdict.reasons;
    let status = verdict.status;
    if (model?.listsBroken && status === 'dropped') {
      // Measured: the agent lists every skill whose SKILL.md it reads, however broken its frontmatter.
      const text = readSkillFile!(e);
      texts.set(e.id, text);
      if (text !== null && listedDespiteFindings(agent, reasons)) status = 'mangled';
    }
    skills.push({
      entryId: e.id,
      identifier,
      name: e.name,
      rootId: e.provenance.rootId,
      dir: e.provenance.dir,
      status,
      reasons,
      catalogChars: 0,
      listing: { label: identifier, shown: 'hidden', description: null, chars: 0, measured: model !== undefined },
    });
  }

  // The agent's own rule for one identifier found twice; dropped copies do not compete.
  const groups = new Map<string, AgentViewSkill[]>();
  for (const s of skills) {
    if (s.status === 'dropped') continue;
    groups.set(s.identifier, [...(groups.get(s.identifier) ?? []), s]);
  }
  const duplicates: AgentView['duplicates'] = [];
  for (const [identifier, group] of groups) {
    if (group.length < 2) continue;
    duplicates.push({ identifier, entryIds: group.map((s) => s.entryId) });
    const rule = agent.sameName;
    if (rule === 'all-listed') continue;
    if (rule === 'random' || rule === null) {
      for (const s of group) {
        s.status = 'ambiguous';
        const key = rule === 'random' ? 'agent.reason.same-name-random' : 'agent.reason.same-name-unknown';
        s.reasons.push(reason('same-name', key, { agent: agent.name, count: group.length, name: identifier }));
      }
      continue;
    }
    const ordered = rule === 'project-wins' ? [...group].sort((a, b) => tierOf.get(b.rootId)!.tier - tierOf.get(a.rootId)!.tier) : group;
    const winner = rule === 'later-tier-wins' ? ordered[ordered.length - 1] : ordered[0];
    for (const s of group) {
      if (s === winner) continue;
      s.status = 'shadowed';
      s.shadowedBy = winner.entryId;
      const ruleText = { key: `agent.same-name-rule.${rule}` };
      s.reasons.push(reason('same-name', 'agent.reason.same-name-hidden', { winner: winner.entryId, agent: agent.name, rule: ruleText }));
    }
  }

  const rootKinds = new Map(read.map((r) => [r.root.id, { kind: r.root.kind, path: r.root.path }]));
  // The agent's own root, for a budget that counts the folders its listing names (Codex's alias table).
  const builtinRoot = model?.budget?.rootTable?.builtinRoot;
  const ownRoot = model && builtinRoot && userHome && model.builtins.length ? expandHome(builtinRoot, userHome) : null;
  const measuredUsed = model
    ? predictMeasured(agent, skills, byEntry, (e) => (texts.has(e.id) ? texts.get(e.id)! : readSkillFile!(e)), rootKinds, ownRoot)
    : undefined;
  if (!model) for (const s of skills) if (isResident(s)) s.listing = predictFromRules(agent, byEntry.get(s.entryId)!, s);

  let used = residentCatalog(agent, skills, byEntry);
  // A budget counted over the whole listing as the agent renders it (its own skills included).
  if (measuredUsed !== undefined) used = measuredUsed;
  const limit = agent.catalogBudget?.chars ?? (measuredUsed === undefined ? null : model!.budget!.chars);
  const costliest = skills
    .filter((s) => s.catalogChars > 0)
    .sort((a, b) => b.catalogChars - a.catalogChars || (a.entryId < b.entryId ? -1 : 1))
    .slice(0, 5)
    .map((s) => ({ entryId: s.entryId, identifier: s.identifier, chars: s.catalogChars }));

  const counts = { loaded: 0, mangled: 0, dropped: 0, shadowed: 0, ambiguous: 0 };
  for (const s of skills) counts[s.status]++;
  const finds = agent.quirks.nestedTwoLevels === 'found' || agent.depth.kind === 'recursive';
  return {
    agent: { id: agent.id, name: agent.name },
    sameName: agent.sameName,
    guard: !agent.writeGuard
      ? 'rules'
      : agent.writeGuard.settingsFlag || agent.writeGuard.settingsEnv || agent.writeGuard.configFlag
        ? 'hook'
        : 'hook-temporary',
    scriptGuard: agent.sandbox?.hidesFolders ? 'guarded' : agent.writeGuard ? 'hook' : 'advisory',
    homeGuard: agent.sandbox?.protectsHome ? 'sandbox' : 'seal',
    roots: read.map((r) => r.root),
    listingOrder: orderMessage(agent),
    skills,
    duplicates,
    nested: nested.filter((n) => tierOf.has(n.rootId)).map((n) => ({ ...n, found: finds })),
    budget: {
      limit,
      used,
      over:
        limit !== null &&
        (used > limit || skills.some((x) => x.listing.shown === 'name-only' || x.reasons.some((r) => r.code === 'listed-left-out'))),
      overflow: agent.catalogBudget?.overflow ?? null,
      overflowMsg: overflowMessage(agent),
      costliest,
    },
    counts,
  };
}

/** Characters of the resident catalog: each loaded identifier once (an ambiguous one is counted once too). */
function residentCatalog(agent: AgentDef, skills: AgentViewSkill[], byEntry: Map<string, CatalogEntry>): number {
  const counted = new Set<string>();
  let used = 0;
  for (const s of skills) {
    if (!isResident(s) || (s.status === 'ambiguous' && counted.has(s.identifier))) continue;
    counted.add(s.identifier);
    // A skill left out of the listing (`disable-model-invocation`) costs its model nothing.
    const hidden = s.listing.shown === 'hidden';
    s.catalogChars = hidden
      ? 0
      : s.listing.measured
        ? listingLineChars(s.listing)
        : catalogCost(agent, byEntry.get(s.entryId)!, s.identifier);
    used += s.catalogChars;
  }
  return used;
}

/** What the agent does past its budget, as a message (from the measured listing's mode); null when unknown. */
function overflowMessage(agent: AgentDef): MessageRef | null {
  const budget = agent.listing?.budget;
  if (!budget) return null;
  return { key: `agent.overflow.${budget.overflow}`, params: { agent: agent.name, chars: budget.chars, tokens: budget.tokens ?? 0 } };
}

/** How the agent orders its listing, as a message; null when its listing is not measured. */
function orderMessage(agent: AgentDef): AgentView['listingOrder'] {
  const order = agent.listing?.order;
  if (!order) return null;
  const locale = order === 'locale' ? environmentLocale() : undefined;
  const key = order === 'locale' && !locale ? 'agent.order.locale-unset' : `agent.order.${order}`;
  return { stable: order !== 'unstable', msg: { key, params: { agent: agent.name, ...(locale ? { locale } : {}) } } };
}

/** Characters of the skill's line in a measured listing, with its line break. */
function listingLineChars(l: AgentViewSkill['listing']): number {
  return codePoints(l.description === null ? `- ${l.label}` : `- ${l.label}: ${l.description}`) + 1;
}

function isResident(s: AgentViewSkill): boolean {
  return s.status === 'loaded' || s.status === 'mangled' || s.status === 'ambiguous';
}

/** Agents whose listing is not measured yet: the description as written, or cut where a quirk says so. */
function predictFromRules(agent: AgentDef, e: CatalogEntry, s: AgentViewSkill): AgentViewSkill['listing'] {
  if (s.reasons.some((r) => HIDING_CODES.has(r.code)))
    return { label: s.identifier, shown: 'hidden', description: null, chars: 0, measured: false };
  const n = codePoints(e.description);
  if (n > 1024 && agent.quirks.descriptionOver1024 === 'cut') {
    return {
      label: s.identifier,
      shown: 'shortened',
      description: [...e.description].slice(0, 1024).join(''),
      chars: 1024,
      measured: false,
    };
  }
  return { label: s.identifier, shown: 'full', description: e.description, chars: n, measured: false };
}

/** Agents with a measured listing model: the label, description and budget exactly as their CLI sends them. */
function predictMeasured(
  agent: AgentDef,
  skills: AgentViewSkill[],
  byEntry: Map<string, CatalogEntry>,
  read: ReadSkillFile,
  rootKinds: Map<string, { kind: string; path: string }>,
  ownRoot: string | null,
): number | undefined {
  const model = agent.listing!;
  const listed: Array<{ s: AgentViewSkill; l: ListedSkill; dir: string; root?: string }> = [];
  for (const s of skills) {
    if (!isResident(s)) continue;
    const e = byEntry.get(s.entryId)!;
    const text = read(e);
    if (text === null) continue;
    const root = rootKinds.get(s.rootId);
    const scope = root?.kind === 'project' ? 'project' : 'user';
    const where = root ? path.relative(root.path, e.provenance.dir).split(path.sep).join('/') : e.dirName;
    const l = listSkill(model, e.dirName, text, scope);
    if (l.hidden) {
      // `disable-model-invocation` and the like: loaded, but its model is never shown it.
      s.listing = { label: l.label, shown: 'hidden', description: null, chars: 0, measured: true };
      if (!s.reasons.some((r) => HIDING_CODES.has(r.code)))
        s.reasons.push(
          reason('model-invocation-disabled', 'agent.reason.listed-hidden', { agent: agent.name, field: model.hiddenBy!.field }),
        );
      continue;
    }
    listed.push({ s, l: { ...l, scope, path: `${where}/SKILL.md` }, dir: e.dirName, root: root?.path });
  }
  // An unstable order is not predicted: the skills are counted (and positioned) by label instead.
  // Claude Code: the user's folder first, each folder sorted by folder name as localeCompare does.
  const collate = labelCollator(model.order) ?? (model.collation === 'locale' ? labelCollator('locale')! : listingOrder);
  const first = model.order === 'user-scope-then-label' ? 'user' : 'project';
  const byScope = ['scope-then-label', 'user-scope-then-label', 'builtins-then-scope-then-label'].includes(model.order);
  const scopeRank = (l: ListedSkill) => (byScope && l.scope !== first ? 1 : 0);
  const key = (x: (typeof listed)[number]) => (model.label === 'name' ? x.l.label : x.dir);
  listed.sort((a, b) => scopeRank(a.l) - scopeRank(b.l) || collate(key(a), key(b)));
  const roots = listed.flatMap((x) => (x.root ? [x.root] : []));
  const allocation = allocateListing(
    model,
    listed.map((x) => x.l),
    ownRoot ? [...roots, ownRoot] : roots,
  );
  const shown = allocation.skills;
  listed.forEach(({ s, l }, i) => {
    const firstLine = allocation.texts?.[i];
    if (shown[i] === 'shortened' && firstLine !== undefined) {
      // Past the budget the agent keeps only the description's first line.
      s.listing = { label: l.label, shown: 'shortened', description: firstLine, chars: codePoints(firstLine), measured: true };
      const params = { agent: agent.name, budget: model.budget?.chars ?? 0 };
      s.reasons.push(reason('listed-first-line', 'agent.reason.listed-first-line', params));
      if (s.status === 'loaded') s.status = 'mangled';
      return;
    }
    if (shown[i] === 'shortened') {
      // Shared out under the budget: the description keeps its first `kept` characters.
      const kept = allocation.kept![i]!;
      const description = [...l.description].slice(0, kept).join('');
      s.listing = { label: l.label, shown: 'shortened', description, chars: kept, measured: true };
      s.reasons.push(reason('description-cut', 'agent.reason.description-cut', { agent: agent.name, chars: kept }));
      if (s.status === 'loaded') s.status = 'mangled';
      return;
    }
    if (shown[i] === 'left-out') {
      // Past the budget this agent lists nothing more: the model never sees the skill.
      s.listing = { label: l.label, shown: 'hidden', description: null, chars: 0, measured: true };
      s.reasons.push(reason('listed-left-out', 'agent.reason.listed-left-out', { agent: agent.name, budget: model.budget?.chars ?? 0 }));
      s.status = 'dropped';
      return;
    }
    const full = shown[i] === 'full';
    const chars = full ? codePoints(l.description) : 0;
    s.listing = {
      label: l.label,
      shown: !full ? 'name-only' : l.capped ? 'shortened' : 'full',
      description: full ? l.description : null,
      chars,
      measured: true,
    };
    if (!full) {
      s.reasons.push(reason('listed-name-only', 'agent.reason.listed-name-only', { agent: agent.name, budget: model.budget?.chars ?? 0 }));
      if (s.status === 'loaded') s.status = 'mangled';
    } else if (l.capped) {
      const cut = 'agent.reason.description-cut';
      if (!s.reasons.some((r) => r.code === 'description-budget'))
        s.reasons.push(reason('description-cut', cut, { agent: agent.name, chars: chars }));
    }
  });
  // Where each listed skill stands among the user's skills, when the agent's order holds from run to run.
  let position = 0;
  for (const { s } of listed) if (s.listing.shown !== 'hidden') s.listing.position = model.order === 'unstable' ? null : position++;
  return allocation.used;
}
