import type { Diagnostic, MessageParams, MessageRef, Severity } from '../contract/index.js';
import { formatMessage } from '../contract/messages-text.js';
import type { Registry } from '../agents/registry.js';

// The rule table (docs/lint-rules.md) as data. Which agents a finding hurts is derived from
// the agent registry (resources/agents.json), never from agent ids written here.

type QuirkKey =
  | 'bom'
  | 'blankLineBeforeFrontmatter'
  | 'missingDescription'
  | 'descriptionOver1024'
  | 'metadataNotMap'
  | 'lowercaseSkillFile'
  | 'nestedTwoLevels'
  | 'nameOver64'
  | 'missingName'
  | 'emptyDescription'
  | 'indentedFrontmatter'
  | 'badYaml'
  | 'descriptionNotString'
  | 'colonInValue';

export interface Rule {
  severity: Severity;
  /** Agents that drop or mangle the skill because of this finding; `variant` narrows the cause. */
  agents?(registry: Registry, variant?: string): string[];
  /** A finding of this `variant` is an error when some agent drops the skill for it. */
  errorWhenDropped?: string;
}

/** Agents (observed and documented) whose quirk value is set and not one of `harmless`. */
function byQuirk(key: QuirkKey, harmless: string[] = ['ok', 'kept', 'found']) {
  return (registry: Registry): string[] => {
    const out: string[] = [];
    for (const a of [...registry.agents, ...registry.documentedOnly]) {
      const v = a.quirks[key];
      if (typeof v === 'string' && !harmless.includes(v)) out.push(a.id);
    }
    return out;
  };
}

const noDescription = byQuirk('missingDescription');

/** An agent whose indentation quirk is set and harmless (it reads an indented opening line). */
function indentHarmless(registry: Registry, id: string): boolean {
  const a = [...registry.agents, ...registry.documentedOnly].find((x) => x.id === id);
  const v = a?.quirks.indentedFrontmatter;
  return v !== undefined && ['ok', 'kept', 'found'].includes(v);
}

/** Agents whose discovery does not reach a skill `level` dirs below a root (1 = direct child). */
export function agentsMissingDepth(registry: Registry, level: number): string[] {
  return registry.agents
    .filter((a) => {
      const d = a.depth;
      if (d.kind === 'recursive') return d.max != null && level > d.max;
      return level > 1;
    })
    .map((a) => a.id);
}

export const RULES: Record<string, Rule> = {
  'skill-file-missing': {
    severity: 'error',
    agents: noDescription,
  },
  'skill-file-case': {
    severity: 'error',
    agents: byQuirk('lowercaseSkillFile'),
  },
  'frontmatter-missing': {
    severity: 'error',
    agents: noDescription,
  },
  'frontmatter-not-first': {
    severity: 'error',
    agents: (r, variant) =>
      variant === 'bom'
        ? byQuirk('bom')(r)
        : variant === 'indent'
          ? byQuirk('indentedFrontmatter')(r)
              .concat(byQuirk('blankLineBeforeFrontmatter')(r))
              .filter((id, i, all) => all.indexOf(id) === i && !indentHarmless(r, id))
          : byQuirk('blankLineBeforeFrontmatter')(r),
  },
  'frontmatter-unclosed': { severity: 'error', agents: noDescription },
  'frontmatter-yaml': {
    severity: 'error',
    agents: noDescription,
  },
  'frontmatter-not-map': {
    severity: 'error',
    agents: noDescription,
  },
  'frontmatter-code': {
    severity: 'error',
    agents: noDescription,
  },
  'frontmatter-strict': {
    severity: 'warning',
    // An unquoted `: ` in a plain value: a strict YAML parser (Copilot CLI) refuses the frontmatter.
    agents: (r, variant) => (variant === 'colon' ? byQuirk('colonInValue')(r) : []),
    errorWhenDropped: 'colon',
  },
  'frontmatter-dashes-in-value': { severity: 'warning' },
  'name-missing': { severity: 'error', agents: byQuirk('missingName') },
  'name-not-string': { severity: 'error' },
  'name-too-long': { severity: 'error', agents: byQuirk('nameOver64') },
  'name-invalid': { severity: 'error' },
  'name-unicode': { severity: 'warning' },
  'name-dir-mismatch': {
    severity: 'error',
    agents: (r) => r.agents.filter((a) => a.identifier === 'dir').map((a) => a.id),
  },
  'name-reserved': { severity: 'warning' },
  'description-missing': {
    severity: 'error',
    agents: noDescription,
  },
  'description-not-string': {
    severity: 'error',
    agents: noDescription,
  },
  'description-empty': {
    severity: 'error',
    agents: noDescription,
  },
  'description-too-long': {
    severity: 'error',
    agents: byQuirk('descriptionOver1024'),
  },
  'description-angle-brackets': {
    severity: 'warning',
  },
  'description-budget': {
    severity: 'warning',
    agents: (r) => r.agents.filter((a) => a.quirks.descriptionBudget).map((a) => a.id),
  },
  'compatibility-invalid': { severity: 'error' },
  'license-invalid': { severity: 'error' },
  'metadata-not-map': {
    severity: 'error',
    agents: byQuirk('metadataNotMap'),
  },
  'metadata-value-not-string': { severity: 'warning' },
  'allowed-tools-invalid': { severity: 'error' },
  'field-unknown': { severity: 'warning' },
  // Agents are named by the finding (their listing's `hiddenBy` rule), not derived here.
  'model-invocation-disabled': { severity: 'info' },
  'body-empty': { severity: 'warning' },
  'body-too-long': { severity: 'warning' },
  'reference-broken': { severity: 'error' },
  'reference-escapes': { severity: 'error' },
  'reference-absolute': { severity: 'warning' },
  'reference-too-deep': { severity: 'warning' },
  'symlink-escapes': { severity: 'error' },
  'legacy-state-path': { severity: 'warning' },
  'skill-nested': {
    severity: 'warning',
    agents: (r, variant) => agentsMissingDepth(r, Number(variant ?? 2) || 2),
  },
  'skill-dot-dir': {
    severity: 'warning',
    agents: (r) => r.agents.filter((a) => a.dotDirs === 'skipped').map((a) => a.id),
  },
  'skill-tree-too-deep': { severity: 'error' },
  'skill-file-symlink': {
    severity: 'warning',
    agents: (r) => r.agents.filter((a) => a.symlinkedSkillFile === 'ignored').map((a) => a.id),
  },
  // Root-level codes: raised by the catalog, kept here so makeDiagnostic knows them.
  'skill-shadowed': { severity: 'warning' },
  'skill-duplicate': {
    severity: 'warning',
    agents: (r) => r.agents.filter((a) => a.sameName === 'all-listed' || a.sameName === 'random').map((a) => a.id),
  },
  'link-dangling': { severity: 'error' },
  'link-cycle': { severity: 'error' },
};

export interface DiagnosticInit {
  /** Which sentence of the code: the message key is `diag.<code>.<says>` (src/contract/messages-diag.ts). */
  says: string;
  params?: MessageParams;
  file: string;
  line?: number;
  column?: number;
  agents?: string[];
  /** Another fix sentence than the code's own: the key `diag.<code>.<fixSays>`. */
  fixSays?: string;
  severity?: Severity;
  /** Narrows which agents a rule hurts (e.g. `bom` vs `blank` for frontmatter-not-first). Not stored. */
  variant?: string;
}

/**
 * A diagnostic with severity and (given a registry) agents taken from the rule table. Its finding
 * and fix travel as message keys with parameters (`msg`, `fixMsg`) for the UI to word, and as
 * English (`message`, `fix`) for the CLI and JSON output.
 */
export function makeDiagnostic(code: string, init: DiagnosticInit, registry?: Registry): Diagnostic {
  const rule = RULES[code];
  if (!rule) throw new Error(`Unknown diagnostic code: ${code}`);
  const msg: MessageRef = init.params ? { key: `diag.${code}.${init.says}`, params: init.params } : { key: `diag.${code}.${init.says}` };
  const d: Diagnostic = { code, severity: init.severity ?? rule.severity, message: formatMessage(msg), file: init.file, msg };
  if (init.line !== undefined) d.line = init.line;
  if (init.column !== undefined) d.column = init.column;
  const agents = init.agents ?? (registry && rule.agents ? rule.agents(registry, init.variant) : undefined);
  if (agents && agents.length) d.agents = agents;
  if (agents?.length && rule.errorWhenDropped !== undefined && rule.errorWhenDropped === init.variant) d.severity = 'error';
  const fixMsg: MessageRef = { key: `diag.${code}.${init.fixSays ?? 'fix'}` };
  d.fix = formatMessage(fixMsg);
  d.fixMsg = fixMsg;
  return d;
}

/** The phrase for what kind of value `v` is ("a list", "a number"...), as a message parameter. */
export function kindOf(v: unknown): MessageRef {
  if (v === null) return { key: 'diag.kind.null' };
  if (v === undefined) return { key: 'diag.kind.empty' };
  if (Array.isArray(v)) return { key: 'diag.kind.list' };
  const t = typeof v;
  if (t === 'object') return { key: 'diag.kind.map' };
  if (t === 'string' || t === 'number' || t === 'boolean') return { key: `diag.kind.${t}` };
  return { key: 'diag.kind.other' };
}
