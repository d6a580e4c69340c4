import type { Diagnostic, Severity } from '../contract/index.js';
import type { Registry } from '../agents/registry.js';

// The rule table (shared/docs/lint-rules.md) as data. Which agents a finding hurts is derived from
// the agent registry (resources/agents.json), never from agent ids written here.

type QuirkKey =
  | 'bom'
  | 'blankLineBeforeFrontmatter'
  | 'missingDescription'
  | 'descriptionOver1024'
  | 'metadataNotMap'
  | 'lowercaseSkillFile'
  | 'nestedTwoLevels';

export interface Rule {
  severity: Severity;
  /** One sentence: what to change. */
  fix: string;
  /** Agents that drop or mangle the skill because of this finding; `variant` narrows the cause. */
  agents?(registry: Registry, variant?: string): string[];
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
    fix: 'Add a SKILL.md with a name and description frontmatter to this directory.',
    agents: noDescription,
  },
  'skill-file-case': {
    severity: 'error',
    fix: 'Rename the file to SKILL.md (upper case, .md lower case).',
    agents: byQuirk('lowercaseSkillFile'),
  },
  'frontmatter-missing': {
    severity: 'error',
    fix: 'Start SKILL.md with a `---` line, the name and description fields, and a closing `---` line.',
    agents: noDescription,
  },
  'frontmatter-not-first': {
    severity: 'error',
    fix: 'Make `---` the very first bytes of SKILL.md: remove the byte order mark, blank lines or indentation before it.',
    agents: (r, variant) => (variant === 'bom' ? byQuirk('bom')(r) : byQuirk('blankLineBeforeFrontmatter')(r)),
  },
  'frontmatter-unclosed': { severity: 'error', fix: 'Close the frontmatter with a line holding only `---`.', agents: noDescription },
  'frontmatter-yaml': {
    severity: 'error',
    fix: 'Fix the YAML syntax at the given line, quoting values that hold special characters.',
    agents: noDescription,
  },
  'frontmatter-not-map': {
    severity: 'error',
    fix: 'Write the frontmatter as `key: value` lines (at least name and description).',
    agents: noDescription,
  },
  'frontmatter-code': {
    severity: 'error',
    fix: 'Replace the executable frontmatter with a plain `---` YAML block.',
    agents: noDescription,
  },
  'frontmatter-strict': {
    severity: 'warning',
    fix: 'Use plain block YAML: spaces not tabs, no flow style, no anchors or duplicate keys, and quote values that contain `: `.',
  },
  'frontmatter-dashes-in-value': { severity: 'warning', fix: 'Remove `---` from the value or reword it (for example use an em dash).' },
  'name-missing': { severity: 'error', fix: 'Add `name:` with the directory name (lowercase letters, digits and hyphens).' },
  'name-not-string': { severity: 'error', fix: 'Make `name` a plain string equal to the directory name.' },
  'name-too-long': { severity: 'error', fix: 'Shorten `name` (and the directory) to 64 characters or fewer.' },
  'name-invalid': { severity: 'error', fix: 'Use only lowercase a-z, 0-9 and single hyphens in `name`, not at the start or end.' },
  'name-unicode': { severity: 'warning', fix: 'Use ASCII a-z, 0-9 and hyphens in `name` for the widest agent support.' },
  'name-dir-mismatch': {
    severity: 'error',
    fix: 'Rename the directory or the `name` field so that both are the same.',
    agents: (r) => r.agents.filter((a) => a.identifier === 'dir').map((a) => a.id),
  },
  'name-reserved': { severity: 'warning', fix: 'Choose a name without "anthropic" or "claude".' },
  'description-missing': {
    severity: 'error',
    fix: 'Add `description:` saying what the skill does and when to use it.',
    agents: noDescription,
  },
  'description-not-string': {
    severity: 'error',
    fix: 'Make `description` a plain string (quote it if it looks like a number or list).',
    agents: noDescription,
  },
  'description-empty': {
    severity: 'error',
    fix: 'Write a description saying what the skill does and when to use it.',
    agents: noDescription,
  },
  'description-too-long': {
    severity: 'error',
    fix: 'Shorten `description` to 1024 characters or fewer and move details into the body.',
    agents: byQuirk('descriptionOver1024'),
  },
  'description-angle-brackets': {
    severity: 'warning',
    fix: 'Remove `<` and `>` from the description (agents embed it in XML-like prompts).',
  },
  'description-budget': {
    severity: 'warning',
    fix: 'Shorten `description` and `when_to_use` together so the agent does not cut them.',
    agents: (r) => r.agents.filter((a) => a.quirks.descriptionBudget).map((a) => a.id),
  },
  'compatibility-invalid': { severity: 'error', fix: 'Make `compatibility` a non-empty string of at most 500 characters, or remove it.' },
  'license-invalid': { severity: 'error', fix: 'Make `license` a string (a license name or the name of a bundled license file).' },
  'metadata-not-map': {
    severity: 'error',
    fix: 'Make `metadata` a map of `key: "string value"` lines, or remove it.',
    agents: byQuirk('metadataNotMap'),
  },
  'metadata-value-not-string': { severity: 'warning', fix: 'Quote the metadata value so that it is a string.' },
  'allowed-tools-invalid': { severity: 'error', fix: 'Write `allowed-tools` as one space-separated string such as `Read Bash(git:*)`.' },
  'field-unknown': { severity: 'warning', fix: 'Move the field under `metadata:` or remove it.' },
  'body-empty': { severity: 'warning', fix: 'Write the instructions the agent should follow below the frontmatter.' },
  'body-too-long': { severity: 'warning', fix: 'Move detail into files under references/ and link them from a shorter SKILL.md.' },
  'reference-broken': { severity: 'error', fix: 'Fix the path or add the missing file to the skill.' },
  'reference-escapes': { severity: 'error', fix: 'Copy the file into the skill directory and refer to it by a relative path.' },
  'reference-absolute': { severity: 'warning', fix: 'Use a forward-slash path relative to the skill directory.' },
  'reference-too-deep': { severity: 'warning', fix: 'Link every file directly from SKILL.md instead of through another reference file.' },
  'symlink-escapes': { severity: 'error', fix: 'Replace the link with a copy of its target inside the skill directory.' },
  'legacy-state-path': { severity: 'warning', fix: 'Keep state in the skill state dir SkillDock provides instead of a fixed home path.' },
  'skill-nested': {
    severity: 'warning',
    fix: 'Move the nested skill to its own directory directly under a skills root.',
    agents: (r, variant) => agentsMissingDepth(r, Number(variant ?? 2) || 2),
  },
  'skill-dot-dir': {
    severity: 'warning',
    fix: 'Rename the directory so it does not start with a dot.',
    agents: (r) => r.agents.filter((a) => a.dotDirs === 'skipped').map((a) => a.id),
  },
  'skill-file-symlink': {
    severity: 'warning',
    fix: 'Make SKILL.md a regular file; link the whole skill directory instead.',
    agents: (r) => r.agents.filter((a) => a.symlinkedSkillFile === 'ignored').map((a) => a.id),
  },
  // Root-level codes: raised by the catalog, kept here so makeDiagnostic knows them.
  'skill-shadowed': { severity: 'warning', fix: 'Rename one of the skills or remove the copy you do not want.' },
  'skill-duplicate': {
    severity: 'warning',
    fix: 'Keep one skill per name in a root: rename or remove the other.',
    agents: (r) => r.agents.filter((a) => a.sameName === 'all-listed' || a.sameName === 'random').map((a) => a.id),
  },
  'link-dangling': { severity: 'error', fix: 'Remove the link or point it at an existing skill directory.' },
  'link-cycle': { severity: 'error', fix: 'Remove the symlink that points back to one of its own parents.' },
};

export interface DiagnosticInit {
  message: string;
  file: string;
  line?: number;
  column?: number;
  agents?: string[];
  fix?: string;
  severity?: Severity;
  /** Narrows which agents a rule hurts (e.g. `bom` vs `blank` for frontmatter-not-first). Not stored. */
  variant?: string;
}

/** A diagnostic with severity, fix and (given a registry) agents taken from the rule table. */
export function makeDiagnostic(code: string, init: DiagnosticInit, registry?: Registry): Diagnostic {
  const rule = RULES[code];
  if (!rule) throw new Error(`Unknown diagnostic code: ${code}`);
  const d: Diagnostic = { code, severity: init.severity ?? rule.severity, message: init.message, file: init.file };
  if (init.line !== undefined) d.line = init.line;
  if (init.column !== undefined) d.column = init.column;
  const agents = init.agents ?? (registry && rule.agents ? rule.agents(registry, init.variant) : undefined);
  if (agents && agents.length) d.agents = agents;
  d.fix = init.fix ?? rule.fix;
  return d;
}
