import { z } from 'zod';
import { GUARD_KINDS } from './hook-dialects.js';

// The shape of resources/agents.json. Provided by name in src/schemas.ts; the registry
// itself (registry.ts) reads the file without zod when an earlier validation of the same bytes is
// remembered (src/store/lazy-schema.ts).

const Quirk = z.string();
export const QuirksSchema = z.object({
  bom: Quirk.optional(),
  blankLineBeforeFrontmatter: Quirk.optional(),
  missingDescription: Quirk.optional(),
  descriptionOver1024: Quirk.optional(),
  /** What `descriptionOver1024` counts: code points (absent), or UTF-16 units (an emoji is two). */
  descriptionUnits: z.enum(['code-points', 'utf16']).optional(),
  descriptionBudget: z.object({ chars: z.number(), action: z.string(), includes: z.array(z.string()) }).optional(),
  metadataNotMap: Quirk.optional(),
  lowercaseSkillFile: Quirk.optional(),
  nestedTwoLevels: Quirk.optional(),
  /** No `name:` at all (`dropped`; absent: the folder name is used). */
  missingName: Quirk.optional(),
  /** A `name:` over 64 characters. */
  nameOver64: Quirk.optional(),
  /** A `description:` present but empty (`""`): `ok` lists it with an empty description. */
  emptyDescription: Quirk.optional(),
  /** Spaces before the opening `---` on its line (absent: as `blankLineBeforeFrontmatter`). */
  indentedFrontmatter: Quirk.optional(),
  /** Frontmatter that is not valid YAML: `lenient` reads its `key: value` lines as text. */
  badYaml: Quirk.optional(),
  /** A `description:` that is a number or a boolean: `coerced` lists it as text. */
  descriptionNotString: Quirk.optional(),
  /** An unquoted `: ` inside a plain value (`description: Use when: x`): `dropped` by a strict YAML parser. */
  colonInValue: Quirk.optional(),
});

export const AgentDefSchema = z.object({
  id: z.string(),
  name: z.string(),
  command: z.string().nullable(),
  npmPackage: z.string().nullable(),
  testedVersion: z.string().nullable(),
  evidence: z.enum(['observed', 'convention', 'docs', 'custom']),
  nativeSkillsDir: z.string(),
  contextFile: z.string(),
  /**
   * Files and folders (relative to a project) the agent reads as its own settings, hooks or config:
   * never a custom agent's context file or skills dir (src/contract/custom-agent-rules.ts).
   */
  configFiles: z.array(z.string()).default([]),
  projectDirs: z.array(z.string()),
  userDirs: z.array(z.string()),
  walksUp: z.boolean().nullable(),
  depth: z.object({ kind: z.enum(['children', 'root-and-children', 'recursive']), max: z.number().nullable().optional() }),
  dotDirs: z.enum(['loaded', 'skipped']).nullable(),
  symlinkedSkillDir: z.enum(['followed', 'ignored']).nullable(),
  symlinkedSkillFile: z.enum(['followed', 'ignored']).nullable(),
  identifier: z.enum(['dir', 'name']),
  sameName: z.enum(['user-wins', 'later-tier-wins', 'all-listed', 'random', 'project-wins']).nullable(),
  quirks: QuirksSchema,
  catalogBudget: z.object({ percentOfContext: z.number(), contextTokens: z.number(), chars: z.number(), overflow: z.string() }).nullable(),
  /**
   * How the agent words each skill in the listing its model receives, measured by capturing the
   * CLI's model request (e2e/agents/listing.test.ts) on `observedOn`. Absent: not yet measured.
   */
  listing: z
    .object({
      observedOn: z.string(),
      /** The identifier shown: the folder, the `name:`, or the folder with ` (name)` when they differ. */
      label: z.enum(['dir', 'name', 'dir-and-name']),
      /** Frontmatter fields joined (non-empty ones) into the description. */
      fields: z.array(z.string()),
      joiner: z.string(),
      /**
       * With no description: the first line of the body (heading marks off), or the first body line
       * that is not a heading; else `emptyFallback`. `fallbackWhen`: when the description is empty
       * or blank, or only when the field is absent (an empty one is then listed empty).
       */
      fallback: z.enum(['first-body-line', 'first-body-text-line']).nullable(),
      fallbackWhen: z.enum(['empty', 'absent']).default('empty'),
      emptyFallback: z.string(),
      /** Leading and trailing whitespace of the description dropped. */
      trim: z.boolean().default(true),
      /** Spaces before the opening `---` are skipped (the opening line is compared trimmed). */
      openingTrimmed: z.boolean().default(false),
      /** Only the description's first line is listed (after trimming). */
      firstLineOnly: z.boolean().default(false),
      /** Text added after the (escaped) description, by where the skill was found (`' (user)'`). */
      suffix: z.object({ project: z.string(), user: z.string() }).optional(),
      /** A block scalar's (`>` / `|`) final line break dropped, as if written `>-` (`+` keeps it). */
      blockScalarStrip: z.boolean().default(false),
      /**
       * A skill whose frontmatter findings drop it elsewhere is still listed when its SKILL.md can be
       * read (worded from what the CLI reads); false: the loader's findings decide, as for others.
       */
      listsBroken: z.boolean().default(true),
      /**
       * Listing order: by label (code point by code point); or by scope (project, user, then the
       * agent's own) and then by label; or the user's skills first, then the project's, each by label
       * (`user-scope-then-label`); or the agent's own skills first, then project, then user, each
       * by label. `locale`: by label as the language of the agent's environment sorts it
       * (`localeCompare`; LC_ALL, then LC_MESSAGES, then LANG); `root-collation`: by label in
       * Unicode's default collation whatever the language (a runtime that ignores the environment's).
       * `unstable`: the order changes between runs (a file search that reports matches as its
       * parallel checks finish), so none is predicted.
       */
      order: z
        .enum([
          'label',
          'scope-then-label',
          'user-scope-then-label',
          'builtins-then-scope-then-label',
          'locale',
          'root-collation',
          'unstable',
        ])
        .default('label'),
      /**
       * Runs of more line breaks than this are squeezed to this many: the agent does it to its whole
       * system prompt, listing included (absent: kept as written).
       */
      maxNewlines: z.number().int().positive().optional(),
      /**
       * Within a scope (`user-scope-then-label`): labels compared code point by code point, or as the
       * environment's language sorts them (`localeCompare`, as `locale`; Claude Code, by folder name).
       */
      collation: z.enum(['code-point', 'locale']).default('code-point'),
      /**
       * A skill whose frontmatter `field` holds one of `values` is left out of the listing: only the
       * user can invoke it (`disable-model-invocation: true`). `fold`: compared trimmed, in lower case.
       */
      hiddenBy: z.object({ field: z.string(), values: z.array(z.string()), fold: z.boolean().default(false) }).optional(),
      /** Runs of whitespace (newlines, tabs) become one space. */
      collapseWhitespace: z.boolean(),
      /** Replacements applied to the description, e.g. `<` to `&lt;`. */
      escape: z.record(z.string(), z.string()),
      /** Per-description cap in characters (UTF-16 units, or code points), the marker counted in. */
      cap: z.object({ chars: z.number().int(), marker: z.string(), unit: z.enum(['utf16', 'code-points']).default('utf16') }).nullable(),
      /**
       * Whole listing budget. `name-only`: past it, descriptions are left out (names stay), in
       * listing order. `drop-rest`: entries are counted in listing order as `entry` renders them
       * (`{label}`, `{description}`, `{location}` from `locations` by scope) and the first that does
       * not fit, with every entry after it, is left out. `first-line`: entries are rendered as
       * `entry` (`{location}` from `locations` by scope), joined by line breaks, and counted in UTF-16
       * units; past the budget every skill but the agent's own keeps only the first line of its first
       * field, trimmed (the other fields dropped), however short the listing becomes.
       */
      budget: z
        .object({
          chars: z.number().int(),
          overflow: z.enum(['name-only', 'drop-rest', 'share-tokens', 'first-line']),
          entry: z.string().optional(),
          /** `share-tokens`: the line without a description, and the budget in approximate tokens. */
          emptyEntry: z.string().optional(),
          tokens: z.number().int().optional(),
          bytesPerToken: z.number().int().optional(),
          locations: z.object({ project: z.string(), user: z.string(), builtin: z.string() }).optional(),
          /** `name-only`: what a line costs, UTF-16 units or terminal display width (a CJK character is two). */
          width: z.enum(['utf16', 'display']).default('utf16'),
          /**
           * `share-tokens`: past the budget the CLI lists paths under root aliases and takes the alias
           * table's cost off the budget: one `line` per root holding a listed skill (`builtinRoot`, the
           * agent's own, among them), less `freeBytes` that its shorter wording saves, in tokens.
           */
          rootTable: z.object({ line: z.string(), freeBytes: z.number().int(), builtinRoot: z.string() }).optional(),
        })
        .nullable(),
      /**
       * The agent's own skills, listed after the user's in this order. `fixed`: always in full, its
       * share taken off the budget first; the others compete for the rest after the user's skills.
       */
      builtins: z.array(
        z.object({
          name: z.string(),
          descriptionChars: z.number().int(),
          fixed: z.boolean(),
          /** Its `SKILL.md` relative to its root, where an entry names it (ASCII descriptions assumed). */
          path: z.string().optional(),
          /** Display width of its description where it differs from `descriptionChars` (a line break is zero columns). */
          width: z.number().int().optional(),
        }),
      ),
    })
    .optional(),
  /**
   * How `skilldock verify` runs the installed CLI once, offline, against SkillDock's loopback
   * recorder (src/verify/): `{url}` in `args`, `env` and `files` becomes the recorder's address.
   * `env` holds the CLI's base-URL setting and a dummy key; `files` are written into the scratch
   * home the CLI runs with (`~/` there). `match`: the first model request holding this text carries
   * the listing (some CLIs first ask the model to route the prompt). `parser` reads the listing.
   * `checkedOn`: the version checked to honour the base URL (the pinned CLI of e2e/agents).
   * Absent: SkillDock cannot check this agent with its real CLI.
   */
  probe: z
    .object({
      parser: z.enum(['claude', 'codex', 'copilot', 'gemini', 'opencode', 'qwen']),
      args: z.array(z.string()),
      env: z.record(z.string(), z.string()),
      files: z.array(z.object({ path: z.string(), json: z.unknown() })).default([]),
      match: z.string().nullable().default(null),
      versionArgs: z.array(z.string()).default(['--version']),
      checkedOn: z.string(),
    })
    .optional(),
  env: z.record(z.string(), z.string()),
  trustEnv: z.record(z.string(), z.string()),
  /**
   * Flag that hands the agent extra directories (write access for state dirs). `loadsSkills`: the
   * agent also loads skills from `<dir>/<skillsDir>` of each such dir (null = not verified, treated
   * as no); `contextEnv`: env that makes it read the context file found in such a dir too.
   */
  extraDirFlag: z
    .object({
      flag: z.string(),
      style: z.enum(['repeat', 'comma']),
      loadsSkills: z.boolean().nullable(),
      skillsDir: z.string().nullable().default(null),
      contextEnv: z.record(z.string(), z.string()).default({}),
      /** Files outside the workspace are readable only through this flag (else it only grants writes). */
      neededToRead: z.boolean().default(true),
    })
    .nullable(),
  /** How an interactive session takes its first message: a positional argument, or null (paste it). */
  initialPrompt: z.enum(['positional']).nullable().default(null),
  /**
   * A pre-tool hook the agent runs before file writes and shell commands, used to enforce the write
   * policy (`kind` names its protocol, see src/agents/hook-dialects.ts and docs/agents.md).
   */
  writeGuard: z
    .object({
      kind: z.enum(GUARD_KINDS),
      /** Where the hook goes in a temporary workspace (null: the agent takes it as `configFlag` arguments). */
      settingsFile: z.string().nullable(),
      /** Flag that loads a settings file from elsewhere (the guard for a user's project, written outside it). */
      settingsFlag: z.string().nullable().default(null),
      /** Else a variable naming a settings file the agent reads besides the project's (same purpose). */
      settingsEnv: z.string().nullable().default(null),
      /**
       * Else a flag that sets the agent's configuration for one run (Codex `-c key=value`): the hook,
       * and the agent's trust in it, go on the command line, for a temporary workspace and a user's
       * project alike; no file is written.
       */
      configFlag: z.string().nullable().default(null),
      /** The agent's names of its file-writing and shell tools, in its matcher syntax. */
      matcher: z.string(),
    })
    .nullable()
    .default(null),
  /**
   * The agent's own sandbox for its shell, which SkillDock turns on at launch (`kind` names how:
   * Claude Code's `sandbox` settings beside the guard's hook, Codex's workspace-write mode as `-c`
   * arguments). Measured with the pinned CLI (e2e/agents/sandbox.test.ts) on `observedOn`:
   * `protectsHome`, its shell cannot write outside the workspace and the dirs it was handed, so
   * SkillDock's approvals and settings are out of its reach; `hidesFolders`, a folder can be hidden
   * from its shell (a blocked skill's folder in the library), so indirection finds no script there.
   * Null: none SkillDock can turn on.
   */
  sandbox: z
    .object({
      kind: z.enum(['claude-settings', 'codex-workspace-write']),
      observedOn: z.string(),
      protectsHome: z.boolean(),
      hidesFolders: z.boolean(),
    })
    .nullable()
    .default(null),
});
export type AgentDef = z.infer<typeof AgentDefSchema>;

export const DocumentedAgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  projectDirs: z.array(z.string()),
  userDirs: z.array(z.string()),
  quirks: QuirksSchema,
});

export const RegistrySchema = z.object({
  schemaVersion: z.literal(1),
  observed: z.string(),
  source: z.string(),
  agents: z.array(AgentDefSchema),
  documentedOnly: z.array(DocumentedAgentSchema),
  /** Frontmatter fields outside the spec that some agents read, with the agent ids that read them. */
  frontmatterExtensions: z.record(z.string(), z.array(z.string())).default({}),
});
export type Registry = z.infer<typeof RegistrySchema>;
