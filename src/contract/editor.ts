import { z } from 'zod';
import { DiagnosticSchema } from './common.js';
import { MessageRefSchema } from './messages.js';
import { AgentSkillStatusSchema, RootKindSchema } from './skills.js';
import { ScanFindingSchema } from './security.js';

// Writing skills: read and list a skill's files, lint the editor's unsaved SKILL.md with the
// engine's one linter, save a file atomically as one journal entry, and create a skill from a
// template. Writes go only to library skills, only inside the skill's folder.

/**
 * Which skill: a library folder name (editable), or a catalog entry id `<rootId>/<dirName>`
 * (built-in, agent or project skills: read-only). Library names never contain a slash.
 */
const SkillRef = { skill: z.string().min(1) };

export const SkillTemplateSchema = z.enum(['plain', 'scripts', 'references']);
export type SkillTemplate = z.infer<typeof SkillTemplateSchema>;

/**
 * The words a new skill's files are written with, in the user's language: the window sends them
 * from its locale files; the CLI leaves them out and gets English.
 */
export const TemplateWordsSchema = z.object({
  whenToUse: z.string().min(1),
  whenToUseBody: z.string().min(1),
  steps: z.string().min(1),
  step1: z.string().min(1),
  step2: z.string().min(1),
  step3: z.string().min(1),
  runScript: z.string().min(1),
  seeReference: z.string().min(1),
  referenceTitle: z.string().min(1),
  referenceBody: z.string().min(1),
});
export type TemplateWords = z.infer<typeof TemplateWordsSchema>;

export const SkillFileEntrySchema = z.object({
  /** Posix path relative to the skill folder. */
  path: z.string(),
  kind: z.enum(['file', 'dir', 'link']),
  size: z.number().int(),
  executable: z.boolean(),
  /** Raw target of a link. */
  linkTarget: z.string().optional(),
});
export type SkillFileEntry = z.infer<typeof SkillFileEntrySchema>;

export const SkillFilesSchema = z.object({
  name: z.string(),
  dir: z.string(),
  rootKind: RootKindSchema,
  /** True only for a library skill that is a real folder. */
  editable: z.boolean(),
  /** Why it is read-only (outside the library, a linked skill). */
  readOnlyReason: MessageRefSchema.optional(),
  files: z.array(SkillFileEntrySchema),
});
export type SkillFiles = z.infer<typeof SkillFilesSchema>;

export const SkillFileContentSchema = z.object({
  path: z.string(),
  /** UTF-8 text; null for a file too large or not text (see readOnlyReason). */
  content: z.string().nullable(),
  /** sha256 hex of the bytes on disk: pass it back as `expectedHash` when saving. */
  hash: z.string(),
  size: z.number().int(),
  readOnly: z.boolean(),
  readOnlyReason: MessageRefSchema.optional(),
});
export type SkillFileContent = z.infer<typeof SkillFileContentSchema>;

/** How one agent will list this skill, as the buffer stands. */
export const AgentListingSchema = z.object({
  agent: z.object({ id: z.string(), name: z.string() }),
  /** The name the agent calls it by (folder name or `name:`). */
  identifier: z.string(),
  status: AgentSkillStatusSchema,
  reasons: z.array(z.object({ code: z.string(), message: z.string(), msg: MessageRefSchema.optional() })),
  /** The description as the agent keeps it (cut at its limit); null when it lists none. */
  description: z.string().nullable(),
  /** Code points the agent cut off (0 when kept whole). */
  cut: z.number().int(),
});
export type AgentListing = z.infer<typeof AgentListingSchema>;

export const BufferLintSchema = z.object({
  name: z.string().nullable(),
  description: z.string().nullable(),
  diagnostics: z.array(DiagnosticSchema),
  agents: z.array(AgentListingSchema),
});
export type BufferLint = z.infer<typeof BufferLintSchema>;

export const NameClashSchema = z.object({
  entryId: z.string(),
  rootKind: RootKindSchema,
  dir: z.string(),
  /** `shadowed-by`: that skill wins over the new one; `shadows`: the new one hides it. */
  relation: z.enum(['shadows', 'shadowed-by']),
});

/** What sits at an export destination now, so the user chooses before anything is written. */
export const ExportTargetSchema = z.object({
  agent: z.object({ id: z.string(), name: z.string() }),
  root: z.string(),
  path: z.string(),
  /**
   * `none`: free; `same`: a copy with the same content; `linked`: already a link to this library
   * skill; `different`: another folder of that name (never replaced); `other-link`: a link elsewhere.
   */
  state: z.enum(['none', 'same', 'linked', 'different', 'other-link']),
});
export type ExportTarget = z.infer<typeof ExportTargetSchema>;

export const editorMethods = {
  /** Each agent's user skills folder and what is there under this skill's name. */
  exportTargets: { input: z.object({ name: z.string().min(1) }), output: z.object({ targets: z.array(ExportTargetSchema) }) },
  listSkillFiles: { input: z.object(SkillRef), output: SkillFilesSchema },
  /**
   * One file of a skill, confined to its folder (links followed only when they stay inside it).
   * `maxBytes` (the drawer's read-only viewer): a bigger file is not read at all, its content is null
   * and `readOnlyReason` is `viewer.too-large`.
   */
  readSkillFile: {
    input: z.object({ ...SkillRef, path: z.string(), maxBytes: z.number().int().positive().optional() }),
    output: SkillFileContentSchema,
  },
  /** Lint unsaved SKILL.md text in the skill's folder as it is on disk (nothing is written). */
  lintSkillBuffer: { input: z.object({ ...SkillRef, content: z.string() }), output: BufferLintSchema },
  /** The security scan of one file's unsaved text (a script being edited), as the scan would judge it saved. */
  scanSkillBuffer: {
    input: z.object({ ...SkillRef, path: z.string(), content: z.string() }),
    output: z.object({ findings: z.array(ScanFindingSchema) }),
  },
  /**
   * Write one file of a library skill atomically, as one journal entry (undo restores the old
   * content). Refused (`conflict`, details `{ currentHash, currentContent }`) when the file on disk
   * is no longer `expectedHash` (null: the file must not exist yet).
   */
  saveSkillFile: {
    input: z.object({ ...SkillRef, path: z.string(), content: z.string(), expectedHash: z.string().nullable() }),
    output: z.object({
      path: z.string(),
      hash: z.string(),
      /** Absent when the content was already on disk (nothing written). */
      journalId: z.string().optional(),
      /** The skill had approved scripts and this change means they need approval again. */
      needsApproval: z.boolean(),
    }),
  },
  /** Rename or move a file or folder inside a library skill (one journal entry; refused when `to` exists). */
  renameSkillPath: {
    input: z.object({ ...SkillRef, from: z.string(), to: z.string() }),
    output: z.object({ from: z.string(), to: z.string(), journalId: z.string() }),
  },
  /** Delete a file or folder inside a library skill; it is kept under the home so undo restores it. */
  deleteSkillPath: { input: z.object({ ...SkillRef, path: z.string() }), output: z.object({ path: z.string(), journalId: z.string() }) },
  /** Create an empty folder inside a library skill. */
  createSkillFolder: { input: z.object({ ...SkillRef, path: z.string() }), output: z.object({ path: z.string(), journalId: z.string() }) },
  /** Whether a new skill may take this name: spec findings, library clash, catalog shadowing. */
  checkSkillName: {
    input: z.object({ name: z.string() }),
    output: z.object({
      name: z.string(),
      diagnostics: z.array(DiagnosticSchema),
      /** Problem as a folder name (slash, dot...). */
      folderProblem: MessageRefSchema.optional(),
      inLibrary: z.boolean(),
      clashes: z.array(NameClashSchema),
    }),
  },
  createSkill: {
    input: z.object({
      name: z.string().min(1),
      template: SkillTemplateSchema.default('plain'),
      description: z.string().optional(),
      words: TemplateWordsSchema.optional(),
    }),
    output: z.object({ name: z.string(), dir: z.string(), files: z.array(z.string()), journalId: z.string() }),
  },
} as const;
