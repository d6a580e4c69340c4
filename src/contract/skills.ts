import { z } from 'zod';
import { CountsSchema, DiagnosticSchema } from './common.js';
import { MessageRefSchema } from './messages.js';

/** A hard-coded home path a SKILL.md reads or writes, and where SkillDock redirects it. */
export const LegacyPathSchema = z.object({
  /** As written in the body, normalised to `~/x/` or `~/x/file` form. */
  path: z.string(),
  line: z.number().int(),
  /** `~/.skilldock/skills-state/<id>/...` */
  redirect: z.string(),
});
export type LegacyPath = z.infer<typeof LegacyPathSchema>;

/** The kinds of skill roots, in precedence order. */
export const RootKindSchema = z.enum(['builtin', 'library', 'user', 'project', 'extra']);
export type RootKind = z.infer<typeof RootKindSchema>;

export const RootSchema = z.object({
  /** Stable id, e.g. `builtin`, `library`, `user:claude`, `project:.claude/skills`, `extra:0`. */
  id: z.string(),
  kind: RootKindSchema,
  path: z.string(),
  /** Agent ids whose loader reads this root (from the agent registry). */
  agents: z.array(z.string()),
  /** Lower is stronger. */
  precedence: z.number().int(),
  exists: z.boolean(),
});
export type Root = z.infer<typeof RootSchema>;

export const ProvenanceSchema = z.object({
  rootId: z.string(),
  rootKind: RootKindSchema,
  rootPath: z.string(),
  /** Absolute path of the skill dir as found under the root (may be a link). */
  dir: z.string(),
  /** Real path after following links. */
  realPath: z.string(),
  linked: z.boolean(),
  /** Raw link target when `linked`. */
  linkTarget: z.string().optional(),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** Every frontmatter field is kept (JSON-safe), unknown ones too. */
export const FrontmatterSchema = z.record(z.string(), z.unknown());

/** One skill in the catalog. Bodies are not here: activate a skill to get its body. */
export const CatalogEntrySchema = z.object({
  /** Stable id of this entry: `<rootId>/<dirName>`. */
  id: z.string(),
  /** Identifier agents use: frontmatter `name` when it is a string, else the dir name. */
  name: z.string(),
  dirName: z.string(),
  description: z.string(),
  frontmatter: FrontmatterSchema.nullable(),
  provenance: ProvenanceSchema,
  /** sha256 over the whole skill folder (relative paths + contents), hex. */
  digest: z.string(),
  diagnostics: z.array(DiagnosticSchema),
  counts: CountsSchema,
  /** Entry id of the skill that hides this one, when shadowed. */
  shadowedBy: z.string().optional(),
  /** Entry ids this one hides. */
  shadows: z.array(z.string()),
  /** `<sanitized name>[-<metadata.version>]`, null when no usable name. */
  stateId: z.string().nullable(),
  legacyPaths: z.array(LegacyPathSchema),
  /** Total bytes and files of the folder. */
  size: z.number().int(),
  fileCount: z.number().int(),
});
export type CatalogEntry = z.infer<typeof CatalogEntrySchema>;

export const ActivationSchema = z.object({
  entry: CatalogEntrySchema,
  /** SKILL.md body (after the frontmatter). */
  body: z.string(),
  /** Absolute skill directory (the path the agent should resolve relative paths against). */
  dir: z.string(),
  /** Resource files relative to `dir` (scripts/, references/, assets/ ...), sorted. */
  files: z.array(z.string()),
});
export type Activation = z.infer<typeof ActivationSchema>;

export const LintSkillReportSchema = z.object({
  name: z.string().nullable(),
  dir: z.string(),
  diagnostics: z.array(DiagnosticSchema),
});
export const LintReportSchema = z.object({
  skills: z.array(LintSkillReportSchema),
  summary: z.object({
    skills: z.number().int(),
    errors: z.number().int(),
    warnings: z.number().int(),
    infos: z.number().int(),
  }),
});
export type LintReport = z.infer<typeof LintReportSchema>;

export const CatalogQuerySchema = z.object({
  /** Project dir whose project roots join the catalog. */
  project: z.string().optional(),
  /** Extra roots for this query only (besides settings). */
  roots: z.array(z.string()).optional(),
});
export type CatalogQuery = z.infer<typeof CatalogQuerySchema>;

export const CatalogSchema = z.object({
  roots: z.array(RootSchema),
  entries: z.array(CatalogEntrySchema),
  /** Diagnostics that belong to a root rather than a skill (dangling links, cycles...). */
  rootDiagnostics: z.array(DiagnosticSchema),
  generation: z.number().int(),
});
export type Catalog = z.infer<typeof CatalogSchema>;

/** The roots an agent reads, and how its loader treats each skill there (see docs/agents.md). */
export const AgentSkillStatusSchema = z.enum([
  'loaded', // the agent lists it
  'mangled', // listed, but changed (description cut, frontmatter ignored...)
  'dropped', // the agent skips it (see reasons)
  'shadowed', // hidden by another skill of the same identifier, by this agent's own rule
  'ambiguous', // same identifier twice and the agent picks one at random
]);
export type AgentSkillStatus = z.infer<typeof AgentSkillStatusSchema>;

export const AgentViewSkillSchema = z.object({
  entryId: z.string(),
  /** The identifier this agent uses (dir name or `name:`, per the registry). */
  identifier: z.string(),
  name: z.string(),
  rootId: z.string(),
  dir: z.string(),
  status: AgentSkillStatusSchema,
  /** Why it is dropped or mangled: the diagnostics (and loader rules) that name this agent. */
  /** Why (English `message` for the CLI, `msg` for the UI to word). */
  reasons: z.array(z.object({ code: z.string(), message: z.string(), msg: MessageRefSchema.optional() })),
  /** Entry id of the skill that wins over this one for this agent. */
  shadowedBy: z.string().optional(),
  /** Characters this skill costs in the agent's resident skill catalog (0 when not loaded). */
  catalogChars: z.number().int(),
  /**
   * What the agent's model is shown: the description in full, shortened to `chars` characters, the
   * name only (past the catalog budget), or nothing (`hidden`: dropped or shadowed).
   */
  listing: z.object({
    label: z.string(),
    shown: z.enum(['full', 'shortened', 'name-only', 'hidden']),
    /** The description exactly as sent (null for name-only and hidden). */
    description: z.string().nullable(),
    chars: z.number().int(),
    /** The rules come from a capture of the agent's real model request (registry `listing`). */
    measured: z.boolean(),
    /**
     * Where the skill stands among the user's skills in the listing as sent (0 first); null when the
     * agent's order is not predictable (`listingOrder.stable` false) or the skill is not listed.
     */
    position: z.number().int().nullable().optional(),
  }),
});
export type AgentViewSkill = z.infer<typeof AgentViewSkillSchema>;

export const AgentViewSchema = z.object({
  agent: z.object({ id: z.string(), name: z.string() }),
  /** The agent's precedence rule for one identifier found twice (registry `sameName`). */
  sameName: z.string().nullable(),
  /**
   * How SkillDock keeps this agent's writes where they belong in a conversation: `hook`, a pre-tool
   * hook the agent runs before each file write and shell command; `hook-temporary`, that hook in a
   * temporary workspace only (in the user's own project the agent reads hooks from no file SkillDock
   * may write); `rules`, only the rules written into its context file (asked, not stopped).
   */
  guard: z.enum(['hook', 'hook-temporary', 'rules']),
  /**
   * What keeps a skill's unapproved scripts from running, as measured on the pinned CLI (registry
   * `sandbox`, e2e/agents/sandbox.test.ts and guard.test.ts). Every agent gets the skill placed
   * without its scripts. `guarded`: the agent's own sandbox also hides the library copy from its
   * shell, so no glob, variable or `find` reaches it; `hook`: a hook stops commands that name the
   * scripts, but a shell that looks for the library copy can still run it (not guarded against
   * indirection); `advisory`: no hook runs, the rules only ask.
   */
  scriptGuard: z.enum(['guarded', 'hook', 'advisory']),
  /**
   * What keeps the agent's shell from changing SkillDock's approvals and settings: `sandbox`, its own
   * sandbox leaves SkillDock's home out of its write reach; `seal`, it can write them, and a change
   * SkillDock did not make is detected and trusted in nothing until the user confirms it.
   */
  homeGuard: z.enum(['sandbox', 'seal']),
  /** Only the roots this agent reads, in the order it reads them. */
  roots: z.array(RootSchema),
  /**
   * How the agent orders its listing (a message, `agent.order.<rule>`), measured on the real CLI;
   * `stable` false: the order changes from run to run, and no skill gets a `listing.position`.
   * Null when the agent's listing is not measured.
   */
  listingOrder: z.object({ stable: z.boolean(), msg: MessageRefSchema }).nullable().optional(),
  skills: z.array(AgentViewSkillSchema),
  /** Identifiers found more than once among the agent's roots, with every entry id. */
  duplicates: z.array(z.object({ identifier: z.string(), entryIds: z.array(z.string()) })),
  /** Skills nested two levels below one of its roots, and whether this agent finds them. */
  nested: z.array(z.object({ dir: z.string(), rootId: z.string(), found: z.boolean() })),
  budget: z.object({
    /** Characters the agent keeps for skill descriptions; null when it has no known limit. */
    limit: z.number().int().nullable(),
    used: z.number().int(),
    over: z.boolean(),
    /** What the agent does past the limit (registry text, English). */
    overflow: z.string().nullable(),
    /** The same as a message (`agent.overflow.<mode>`), for the UI to word; null when not measured. */
    overflowMsg: MessageRefSchema.nullable().optional(),
    costliest: z.array(z.object({ entryId: z.string(), identifier: z.string(), chars: z.number().int() })),
  }),
  counts: z.object({
    loaded: z.number().int(),
    mangled: z.number().int(),
    dropped: z.number().int(),
    shadowed: z.number().int(),
    ambiguous: z.number().int(),
  }),
});
export type AgentView = z.infer<typeof AgentViewSchema>;

export const CatalogChangeSchema = z.object({
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
  generation: z.number().int(),
});
export type CatalogChange = z.infer<typeof CatalogChangeSchema>;

export const skillMethods = {
  listRoots: { input: CatalogQuerySchema, output: z.array(RootSchema) },
  listCatalog: { input: CatalogQuerySchema, output: CatalogSchema },
  /** The winning entry of a name (or an entry id) in the catalog of the query. */
  getSkill: {
    input: CatalogQuerySchema.extend({ name: z.string() }),
    output: CatalogEntrySchema,
  },
  activateSkill: {
    input: CatalogQuerySchema.extend({ name: z.string() }),
    output: ActivationSchema,
  },
  lintPaths: { input: z.object({ paths: z.array(z.string()).min(1) }), output: LintReportSchema },
  /** What one agent will actually load from the roots it reads (Agents page). */
  agentView: {
    input: CatalogQuerySchema.extend({ agent: z.string() }),
    output: AgentViewSchema,
  },
  /**
   * Re-read changed skills. With `dirs` (skill dirs or roots) only those are re-read; without,
   * every known root is checked against its per-skill signatures. Emits `catalog-changed`.
   */
  refreshCatalog: {
    input: z.object({ dirs: z.array(z.string()).optional() }),
    output: CatalogChangeSchema,
  },
  /** Start (or stop) watching the roots of a query; changes arrive as `catalog-changed` events. */
  watchCatalog: {
    input: CatalogQuerySchema.extend({ enabled: z.boolean().default(true) }),
    output: z.object({ watching: z.array(z.string()) }),
  },
} as const;

export const CatalogChangedEventSchema = z.object({
  type: z.literal('catalog-changed'),
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
  generation: z.number().int(),
});
export type CatalogChangedEvent = z.infer<typeof CatalogChangedEventSchema>;
