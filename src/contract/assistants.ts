import { z } from 'zod';
import { CatalogEntrySchema, RootKindSchema } from './skills.js';
import { MessageRefSchema } from './messages.js';

// Assistants: a persona (rules), an agent and a chosen set of skills. Skills are referenced by
// name plus the root they were picked from, so a skill that vanished from disk stays visible
// (as missing) instead of silently disappearing or crashing a launch.

/** What an assistant keeps about one attached skill. */
export const AssistantSkillRefSchema = z.object({
  name: z.string().min(1),
  rootId: z.string(),
  rootKind: RootKindSchema,
  /** Absolute root path at attach time (project and extra roots are matched by it). */
  rootPath: z.string().optional(),
  /** Digest of the skill folder when it was attached; lets the UI show "changed since attached". */
  digest: z.string().optional(),
  attachedAt: z.string(),
});
export type AssistantSkillRef = z.infer<typeof AssistantSkillRefSchema>;

export const AssistantNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(100, 'name must be at most 100 characters')
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'name must not contain control characters');

/** Persona rules as Markdown; bounded so a stray binary paste cannot bloat assistants.json. */
export const AssistantRulesSchema = z.string().max(200_000, 'rules must be at most 200,000 characters');

export const AssistantSchema = z.object({
  /** Stable id (`ast-<hex>` for user assistants, `starter-<slug>` for built-in starters). */
  id: z.string(),
  /** Unique among all assistants, compared case-insensitively. */
  name: z.string(),
  /** Agent id from the agent registry (claude, gemini, codex, opencode, qwen, generic, custom). */
  agent: z.string(),
  rules: z.string(),
  skills: z.array(AssistantSkillRefSchema),
  /** Absolute project dir used when launching without an explicit workspace; null = temporary. */
  defaultWorkspace: z.string().nullable(),
  /** Built-in starter: read-only, can be duplicated into an editable assistant. */
  builtin: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Assistant = z.infer<typeof AssistantSchema>;

/** An attached skill resolved against the current catalog. */
export const AssistantSkillViewSchema = AssistantSkillRefSchema.extend({
  /** No skill of this name is in the catalog any more; it can still be detached. */
  missing: z.boolean(),
  /** The catalog entry the skill resolves to now (null when missing). */
  entry: CatalogEntrySchema.nullable(),
  /** Found under a different root than the one it was attached from (e.g. moved into the library). */
  relocated: z.boolean(),
  /** The folder's digest differs from the one recorded at attach time. */
  changed: z.boolean(),
});
export type AssistantSkillView = z.infer<typeof AssistantSkillViewSchema>;

export const AssistantViewSchema = AssistantSchema.extend({
  skills: z.array(AssistantSkillViewSchema),
  /** The agent id is not in the registry (e.g. a removed custom agent). */
  agentMissing: z.boolean(),
  missingCount: z.number().int(),
});
export type AssistantView = z.infer<typeof AssistantViewSchema>;

/**
 * An attach: the assistant as it is now, and the skills that were not attached because they wait for
 * something (an approval of their scripts), each with its status and the keyed reason.
 */
export const AttachResultSchema = AssistantViewSchema.extend({
  waiting: z.array(z.object({ name: z.string(), status: z.string(), msg: MessageRefSchema })).optional(),
});
export type AttachResult = z.infer<typeof AttachResultSchema>;

/** An assistant named by its id or by its unique (case-insensitive) name. */
export const AssistantRefSchema = z.string().trim().min(1);

/** A skill to attach: a name (the effective catalog entry), optionally pinned to one root. */
export const SkillPickSchema = z.union([z.string().min(1), z.object({ name: z.string().min(1), rootId: z.string().optional() })]);
export type SkillPick = z.infer<typeof SkillPickSchema>;

const DefaultWorkspaceSchema = z
  .string()
  // `params.issue` names the problem for the window (input.issue.not-absolute), not the English.
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'), {
    message: 'must be an absolute path',
    params: { issue: 'not-absolute' },
  })
  .nullable();

export const CreateAssistantInputSchema = z.object({
  name: AssistantNameSchema,
  agent: z.string().min(1),
  rules: AssistantRulesSchema.default(''),
  defaultWorkspace: DefaultWorkspaceSchema.optional(),
  /** Skills to attach right away (same rules as attachSkills). */
  skills: z.array(SkillPickSchema).optional(),
  project: z.string().optional(),
});
export type CreateAssistantInput = z.input<typeof CreateAssistantInputSchema>;

export const UpdateAssistantInputSchema = z.object({
  assistant: AssistantRefSchema,
  name: AssistantNameSchema.optional(),
  agent: z.string().min(1).optional(),
  rules: AssistantRulesSchema.optional(),
  defaultWorkspace: DefaultWorkspaceSchema.optional(),
});
export type UpdateAssistantInput = z.input<typeof UpdateAssistantInputSchema>;

export const AttachSkillsInputSchema = z.object({
  assistant: AssistantRefSchema,
  skills: z.array(SkillPickSchema).min(1),
  /** Root to pick every plain name from (a `SkillPick.rootId` wins). */
  rootId: z.string().optional(),
  /** Project dir whose project roots join the catalog for this pick. */
  project: z.string().optional(),
  /** Extra roots for this pick only. */
  roots: z.array(z.string()).optional(),
});
export type AttachSkillsInput = z.input<typeof AttachSkillsInputSchema>;

export const DetachSkillsInputSchema = z.object({
  assistant: AssistantRefSchema,
  skills: z.array(z.string().min(1)).min(1),
});

export const GetAssistantInputSchema = z.object({
  assistant: AssistantRefSchema,
  /** Project dir to resolve project-root skills against (default: the assistant's defaultWorkspace). */
  project: z.string().optional(),
});

export const DuplicateAssistantInputSchema = z.object({
  assistant: AssistantRefSchema,
  /** Name of the copy; default "<name> copy" (then "copy 2", ...). */
  name: AssistantNameSchema.optional(),
});

export const DeleteAssistantInputSchema = z.object({ assistant: AssistantRefSchema });

export const assistantsMethods = {
  /** Every assistant, starters first, then the user's in creation order (refs, not resolved). */
  listAssistants: { input: z.object({}), output: z.array(AssistantSchema) },
  getAssistant: { input: GetAssistantInputSchema, output: AssistantViewSchema },
  createAssistant: { input: CreateAssistantInputSchema, output: AssistantViewSchema },
  updateAssistant: { input: UpdateAssistantInputSchema, output: AssistantViewSchema },
  attachSkills: { input: AttachSkillsInputSchema, output: AttachResultSchema },
  detachSkills: { input: DetachSkillsInputSchema, output: AssistantViewSchema },
  duplicateAssistant: { input: DuplicateAssistantInputSchema, output: AssistantViewSchema },
  deleteAssistant: { input: DeleteAssistantInputSchema, output: z.object({ id: z.string(), name: z.string() }) },
} as const;

export const AssistantsChangedEventSchema = z.object({
  type: z.literal('assistants-changed'),
  /** `reloaded`: another process (the CLI, a hand edit) changed assistants.json; `id` is `*`. */
  action: z.enum(['created', 'updated', 'skills-attached', 'skills-detached', 'duplicated', 'deleted', 'reloaded']),
  /** The assistant that changed (the new copy for `duplicated`; `*` for `reloaded`). */
  id: z.string(),
});
export type AssistantsChangedEvent = z.infer<typeof AssistantsChangedEventSchema>;

export const assistantsEvents = [AssistantsChangedEventSchema] as const;
