import { z } from 'zod';
import { DiagnosticSchema } from './common.js';
import { ConflictChoiceSchema, ImportSummarySchema } from './library.js';
import { MessageRefSchema } from './messages.js';

// Skills from where they are published (src/sources/): add from a git URL, shorthand or archive,
// check for updates, update keeping local edits. SkillOrigin is stored per library skill.

export const SourceInfoSchema = z.object({
  /** The source as the user gave it. */
  given: z.string(),
  kind: z.enum(['git', 'archive', 'well-known']),
  /** Normalised URL handed to git. */
  url: z.string(),
  /** Ref asked for; absent = the remote's default branch. */
  ref: z.string().optional(),
  /** Path inside the repository the user pointed at ('' = root). */
  subpath: z.string(),
});
export type SourceInfo = z.infer<typeof SourceInfoSchema>;

/** Where a library skill came from (stored in `<home>/sources/provenance.json`). */
export const SkillOriginSchema = z.object({
  source: SourceInfoSchema,
  /** Commit the installed files came from. */
  commit: z.string(),
  /** The skill's folder inside the repository ('' = the repository root). */
  path: z.string(),
  /** Digest of the upstream files as installed (also the key of the stored base copy). */
  upstreamDigest: z.string(),
  /** Digest of the library folder right after install or update (tells local edits apart). */
  installedDigest: z.string(),
  /** Digest of the library folder this update replaced (an undone update restores exactly that). */
  replacedDigest: z.string().optional(),
  /** `time` of the record in force before that update. */
  replacedTime: z.string().optional(),
  /** ISO time of the install or last update. */
  time: z.string(),
  /** Read from this lock file of the reference `skills` CLI when the skill was adopted or imported. */
  via: z.string().optional(),
  /** Pinned: check and update stay at `commit` (or the ref given here). */
  pinned: z.string().optional(),
});
export type SkillOrigin = z.infer<typeof SkillOriginSchema>;

export const FoundSkillSchema = z.object({
  /** Folder inside the repository. */
  path: z.string(),
  name: z.string().nullable(),
  description: z.string().optional(),
  digest: z.string(),
  errors: z.number().int(),
  warnings: z.number().int(),
  diagnostics: z.array(DiagnosticSchema),
  /** The security scan's findings by risk, and whether anything in the skill can run code. */
  security: z.object({ high: z.number().int(), medium: z.number().int(), low: z.number().int(), executable: z.boolean() }).optional(),
});
export type FoundSkill = z.infer<typeof FoundSkillSchema>;

export const AddFromSourceInputSchema = z.object({
  source: z.string().min(1),
  ref: z.string().optional(),
  /** Install only these skills (by name or by folder name); default all found. */
  skills: z.array(z.string().min(1)).optional(),
  /** List what the source holds (with lint findings) and install nothing. */
  preview: z.boolean().optional(),
  onConflict: ConflictChoiceSchema.optional(),
  resolutions: z.record(z.string(), ConflictChoiceSchema).optional(),
});

export const AddFromSourceOutputSchema = z.object({
  source: SourceInfoSchema,
  commit: z.string(),
  found: z.array(FoundSkillSchema),
  /** Absent for a preview. */
  summary: ImportSummarySchema.optional(),
  /** What was left out and why (a skill folder, SKILL.md or manifest that links out of the source). */
  skipped: z.array(z.object({ path: z.string(), message: z.string(), msg: MessageRefSchema })).optional(),
});
export type AddFromSourceOutput = z.infer<typeof AddFromSourceOutputSchema>;

export const CheckStatusSchema = z.enum([
  'up-to-date',
  'update-available',
  'changed-locally',
  'upstream-removed',
  'unreachable',
  'pinned',
  'missing',
]);
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

export const CheckResultSchema = z.object({
  skill: z.string(),
  source: z.string(),
  status: CheckStatusSchema,
  /** Also set with update-available when the library copy was edited since install. */
  localChanges: z.boolean(),
  fromCommit: z.string(),
  toCommit: z.string().optional(),
  added: z.array(z.string()).optional(),
  changed: z.array(z.string()).optional(),
  removed: z.array(z.string()).optional(),
  message: z.string(),
  msg: MessageRefSchema,
});
export type CheckResult = z.infer<typeof CheckResultSchema>;

export const sourcesMethods = {
  addFromSource: { input: AddFromSourceInputSchema, output: AddFromSourceOutputSchema },
  checkSources: {
    input: z.object({ names: z.array(z.string().min(1)).optional() }),
    output: z.object({ results: z.array(CheckResultSchema), updates: z.number().int() }),
  },
  listProvenance: {
    input: z.object({}),
    output: z.object({ skills: z.record(z.string(), SkillOriginSchema) }),
  },
} as const;

export const FileChoiceSchema = z.union([z.enum(['upstream', 'mine']), z.object({ content: z.string() })]);
export type FileChoice = z.infer<typeof FileChoiceSchema>;

/**
 * The labels on the conflict markers of a merged text (`<<<<<<< mine`, `||||||| installed`,
 * `>>>>>>> upstream`): codes, like every word the engine hands out; the window words them in the
 * user's language (renderer/src/pages/sources/conflict-markers.ts), the CLI leaves them as they are.
 */
export const MERGE_MARKER_LABELS = ['mine', 'installed', 'upstream'] as const;
export type MergeMarkerLabel = (typeof MERGE_MARKER_LABELS)[number];

export const UpdateFileSchema = z.object({
  path: z.string(),
  action: z.enum(['added', 'changed', 'removed', 'merged', 'kept', 'conflict', 'resolved']),
  /** For a conflict: why, and the three versions (text files; absent = the file does not exist there). */
  conflict: z.enum(['both-changed', 'deleted-upstream', 'deleted-locally', 'binary']).optional(),
  base: z.string().optional(),
  mine: z.string().optional(),
  upstream: z.string().optional(),
  /** Merged text with conflict markers (labelled with MERGE_MARKER_LABELS), to edit. */
  merged: z.string().optional(),
});
export type UpdateFile = z.infer<typeof UpdateFileSchema>;

export const UpdateResultSchema = z.object({
  skill: z.string(),
  source: z.string(),
  status: z.enum(['updated', 'up-to-date', 'conflict', 'pinned', 'upstream-removed', 'unreachable', 'missing', 'changed-locally']),
  fromCommit: z.string(),
  toCommit: z.string().optional(),
  files: z.array(UpdateFileSchema),
  /** Scripts, hooks or allowed-tools changed: the skill needs approval again before a launch. */
  surfaceChanged: z.boolean(),
  message: z.string(),
  msg: MessageRefSchema,
});
export type UpdateResult = z.infer<typeof UpdateResultSchema>;

export const sourcesUpdateMethods = {
  updateSkills: {
    input: z.object({
      /** Skill names; empty or absent with `all` = every skill from a source. */
      names: z.array(z.string().min(1)).optional(),
      all: z.boolean().optional(),
      /** Settle every conflict one way (scripts). */
      take: z.enum(['upstream', 'mine']).optional(),
      /** Per skill, per file: take upstream, keep mine, or this merged text. */
      resolutions: z.record(z.string(), z.record(z.string(), FileChoiceSchema)).optional(),
    }),
    output: z.object({ results: z.array(UpdateResultSchema), journalId: z.string().optional() }),
  },
  pinSkill: {
    /** `ref` absent = pin at the installed commit. */
    input: z.object({ name: z.string().min(1), ref: z.string().min(1).optional() }),
    output: z.object({ name: z.string(), pinned: z.string() }),
  },
  unpinSkill: { input: z.object({ name: z.string().min(1) }), output: z.object({ name: z.string() }) },
  /**
   * Pin (or `off`: unpin) many skills from sources in one operation: one journal entry, one undo.
   * `names` may be globs; `all` takes every skill added from a source.
   */
  pinSkills: {
    input: z.object({
      names: z.array(z.string().min(1)).optional(),
      all: z.boolean().optional(),
      ref: z.string().min(1).optional(),
      off: z.boolean().optional(),
    }),
    output: z.object({ results: z.array(z.object({ name: z.string(), pinned: z.string().nullable() })), journalId: z.string().optional() }),
  },
} as const;

/** The file `skilldock assistant export` writes: enough to recreate an assistant elsewhere. */
export const SharedAssistantSchema = z.object({
  skilldock: z.literal('assistant'),
  version: z.literal(1),
  name: z.string().min(1).max(200),
  agent: z.string().min(1).max(100),
  rules: z.string().max(100_000),
  skills: z
    .array(
      z.object({
        name: z.string().min(1).max(200),
        /** Where the skill came from; absent = local-only (the other machine must have it already). */
        source: z
          .object({
            url: z.string().min(1).max(2000),
            ref: z.string().max(200).optional(),
            path: z.string().max(1000),
            /** A git commit (SHA-1, or SHA-256 in a sha256 repository), or an archive's SHA-256. */
            commit: z.string().regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/),
          })
          .optional(),
        localOnly: z.boolean().optional(),
      }),
    )
    .max(500),
});
export type SharedAssistant = z.infer<typeof SharedAssistantSchema>;

export const ImportedSkillSchema = z.object({
  name: z.string(),
  status: z.enum(['added', 'present', 'conflict', 'missing', 'failed']),
  message: z.string().optional(),
  msg: MessageRefSchema.optional(),
});

export const sourcesShareMethods = {
  exportAssistant: {
    /** `out`: absolute file path to write (the user's choice); absent = return the data only. */
    input: z.object({ assistant: z.string().min(1), out: z.string().min(1).optional() }),
    output: z.object({ data: SharedAssistantSchema, file: z.string().optional() }),
  },
  importAssistant: {
    /**
     * `file` (absolute path) or `data`; `name` renames the new assistant. `allowEmpty`: create it
     * even when it lists skills and none of them could be added (absent: it is not created, and
     * `refused` says why, so the caller can ask the user).
     */
    input: z.object({
      file: z.string().min(1).optional(),
      data: z.unknown().optional(),
      name: z.string().min(1).optional(),
      onConflict: ConflictChoiceSchema.optional(),
      allowEmpty: z.boolean().optional(),
    }),
    output: z.object({
      assistantId: z.string().nullable(),
      name: z.string(),
      skills: z.array(ImportedSkillSchema),
      /** Not created: every skill it lists failed (`sources.share.no-skills`); `allowEmpty` creates it anyway. */
      refused: MessageRefSchema.optional(),
    }),
  },
} as const;
