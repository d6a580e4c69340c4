import { z } from 'zod';
import { CountsSchema, DiagnosticSchema } from './common.js';

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

export const skillMethods = {
  listRoots: { input: CatalogQuerySchema, output: z.array(RootSchema) },
  listCatalog: { input: CatalogQuerySchema, output: CatalogSchema },
  getSkill: {
    input: z.object({ name: z.string(), project: z.string().optional() }),
    output: CatalogEntrySchema,
  },
  activateSkill: {
    input: z.object({ name: z.string(), project: z.string().optional() }),
    output: ActivationSchema,
  },
  lintPaths: { input: z.object({ paths: z.array(z.string()).min(1) }), output: LintReportSchema },
} as const;

export const CatalogChangedEventSchema = z.object({
  type: z.literal('catalog-changed'),
  added: z.array(z.string()),
  changed: z.array(z.string()),
  removed: z.array(z.string()),
  generation: z.number().int(),
});
export type CatalogChangedEvent = z.infer<typeof CatalogChangedEventSchema>;
