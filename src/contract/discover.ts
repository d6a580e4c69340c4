import { z } from 'zod';
import { DiagnosticSchema } from './common.js';
import { ConflictChoiceSchema, ImportSummarySchema } from './library.js';
import { MessageRefSchema } from './messages.js';
import { ScanFindingSchema } from './security.js';

// Catalogs, their on-disk indexes and search (src/discover/): places that offer many skills, which
// the user subscribes to, searched offline; a skill is previewed from the index and installed
// through `add` (src/sources/), so check and update work on it like on any added skill.

export const CatalogKindSchema = z.enum(['git', 'marketplace', 'well-known', 'search-api']);
export type CatalogKind = z.infer<typeof CatalogKindSchema>;

export const SkillCatalogSchema = z.object({
  /** Stable id (kebab-case), used by the CLI and in the index folder's name. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/),
  kind: CatalogKindSchema,
  /** git: a git URL or owner/repo; well-known: the site's https URL; search-api: the API's base URL. */
  url: z.string().min(1).max(2000),
  ref: z.string().max(200).optional(),
  enabled: z.boolean(),
  /** One of the shipped defaults (it can be turned off, and removed). */
  builtin: z.boolean().optional(),
});
export type SkillCatalog = z.infer<typeof SkillCatalogSchema>;

export const CatalogsFileSchema = z.object({ catalogs: z.array(SkillCatalogSchema).max(500) });
export type CatalogsFile = z.infer<typeof CatalogsFileSchema>;

export const RiskSchema = z.enum(['none', 'low', 'medium', 'high']);
export type Risk = z.infer<typeof RiskSchema>;

/** One skill as the index keeps it (the body only in the index file and a preview). */
export const IndexedSkillSchema = z.object({
  catalog: z.string(),
  /** Folder inside the catalog's repository, or the skill's name on a well-known host. */
  path: z.string(),
  /** The repository the skill lives in (a marketplace names others); absent = the catalog's own. */
  repo: z.string().optional(),
  name: z.string(),
  description: z.string(),
  commit: z.string().optional(),
  digest: z.string(),
  files: z.array(z.string()),
  scripts: z.boolean(),
  errors: z.number().int(),
  warnings: z.number().int(),
  /** Agent ids whose loader drops the skill (from the lint findings). */
  droppedBy: z.array(z.string()),
  security: z.object({ high: z.number().int(), medium: z.number().int(), low: z.number().int(), executable: z.boolean() }),
  risk: RiskSchema,
});
export type IndexedSkill = z.infer<typeof IndexedSkillSchema>;

export const IndexedSkillWithBodySchema = IndexedSkillSchema.extend({ body: z.string() });
export type IndexedSkillWithBody = z.infer<typeof IndexedSkillWithBodySchema>;

export const CatalogStatusSchema = SkillCatalogSchema.extend({
  skills: z.number().int(),
  commit: z.string().optional(),
  refreshedAt: z.string().optional(),
  /** The last refresh failed: why (the index from before stays searchable). */
  error: z.object({ message: z.string(), msg: MessageRefSchema }).optional(),
});
export type CatalogStatus = z.infer<typeof CatalogStatusSchema>;

export const RefreshResultSchema = z.object({
  id: z.string(),
  status: z.enum(['refreshed', 'unchanged', 'skipped', 'failed']),
  skills: z.number().int(),
  added: z.number().int(),
  changed: z.number().int(),
  removed: z.number().int(),
  message: z.string(),
  msg: MessageRefSchema,
});
export type RefreshResult = z.infer<typeof RefreshResultSchema>;

export const SearchResultSchema = IndexedSkillSchema.extend({
  score: z.number(),
  /** A library skill came from this catalog's source and path. */
  installed: z.string().optional(),
  /** Installed, and the catalog has a newer commit than the one installed. */
  updateAvailable: z.boolean(),
  /** A search-API hit: known by name only until previewed. */
  remote: z.boolean().optional(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SearchInputSchema = z.object({
  /** Free words; regex characters are plain text; at most 10,000 characters are read. */
  query: z.string().max(100_000),
  catalogs: z.array(z.string()).optional(),
  /** Only skills this agent lists (not dropped by its loader). */
  agent: z.string().optional(),
  scripts: z.boolean().optional(),
  /** Highest risk shown. */
  maxRisk: RiskSchema.optional(),
  installed: z.boolean().optional(),
  limit: z.number().int().min(1).max(500).optional(),
});
export type SearchInput = z.infer<typeof SearchInputSchema>;

export const PreviewSchema = z.object({
  skill: IndexedSkillWithBodySchema,
  source: z.object({ url: z.string(), commit: z.string().optional(), path: z.string() }),
  diagnostics: z.array(DiagnosticSchema),
  findings: z.array(ScanFindingSchema),
  /** Per agent: will it list the skill, and if not which finding drops it. */
  agents: z.array(z.object({ agent: z.string(), listed: z.boolean(), codes: z.array(z.string()) })),
  installed: z.string().optional(),
  updateAvailable: z.boolean(),
});
export type Preview = z.infer<typeof PreviewSchema>;

const SkillRef = { catalog: z.string().min(1), path: z.string().max(1000), repo: z.string().max(2000).optional() };

export const discoverMethods = {
  listCatalogs: { input: z.object({}), output: z.object({ catalogs: z.array(CatalogStatusSchema) }) },
  addCatalog: {
    input: z.object({
      kind: CatalogKindSchema.optional(),
      url: z.string().min(1).max(2000),
      ref: z.string().max(200).optional(),
      id: z.string().optional(),
    }),
    output: z.object({ catalog: SkillCatalogSchema }),
  },
  removeCatalog: { input: z.object({ id: z.string().min(1) }), output: z.object({ id: z.string() }) },
  setCatalogEnabled: {
    input: z.object({ id: z.string().min(1), enabled: z.boolean() }),
    output: z.object({ catalog: SkillCatalogSchema }),
  },
  refreshCatalogs: {
    /** `ids` absent = every enabled catalog; `force` = even when refreshed within the day. */
    input: z.object({ ids: z.array(z.string()).optional(), force: z.boolean().optional() }),
    output: z.object({ results: z.array(RefreshResultSchema) }),
  },
  searchSkills: {
    input: SearchInputSchema,
    output: z.object({
      results: z.array(SearchResultSchema),
      total: z.number().int(),
      /** Catalogs whose answer is missing from the results (a search API that did not answer). */
      problems: z.array(z.object({ catalog: z.string(), message: z.string(), msg: MessageRefSchema })),
    }),
  },
  previewCatalogSkill: { input: z.object(SkillRef), output: PreviewSchema },
  installCatalogSkill: {
    /** `digest` and `commit`: what the preview showed; a skill changed since then is refused with what changed. */
    input: z.object({
      ...SkillRef,
      commit: z.string().optional(),
      digest: z.string().optional(),
      onConflict: ConflictChoiceSchema.optional(),
    }),
    output: z.object({ name: z.string().nullable(), commit: z.string().optional(), summary: ImportSummarySchema }),
  },
} as const;
