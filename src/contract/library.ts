import { z } from 'zod';
import { DiagnosticSchema } from './common.js';
import { MessageRefSchema } from './messages.js';

// The user's library (`<home>/library/<name>/`): import, adopt, delete/restore via the trash,
// export to an agent's user root, and the journal with undo.

export const ConflictChoiceSchema = z.enum(['replace', 'keep-both', 'skip']);
export type ConflictChoice = z.infer<typeof ConflictChoiceSchema>;

/** How a skill reached the library: a real folder, or a link to where it already lives. */
export const LibraryModeSchema = z.enum(['copy', 'link']);
export type LibraryMode = z.infer<typeof LibraryModeSchema>;

export const ImportStatusSchema = z.enum([
  'imported', // new in the library
  'already-present', // same name and same digest: nothing copied
  'replaced', // the old version went to the trash
  'kept-both', // imported under a free name (`libraryName`)
  'skipped', // conflict resolved with skip
  'conflict', // same name, different content, no choice given: nothing written
  'refused', // invalid or hostile source (see message and diagnostics)
]);
export type ImportStatus = z.infer<typeof ImportStatusSchema>;

export const ImportResultSchema = z.object({
  /** What was imported: a folder path, or `<archive>!/<dir inside>` for archive members. */
  source: z.string(),
  /** The skill's name (frontmatter `name`, else its folder name); null when it could not be determined. */
  name: z.string().nullable(),
  status: ImportStatusSchema,
  /** The library folder name it now has (differs from `name` after keep-both). */
  libraryName: z.string().optional(),
  /** Absolute path of the library folder. */
  dir: z.string().optional(),
  digest: z.string().optional(),
  /** Digest of the library version it conflicts with. */
  existingDigest: z.string().optional(),
  /** Lint findings; they never block import except when the name cannot be determined. */
  diagnostics: z.array(DiagnosticSchema),
  message: z.string().optional(),
  /** `message` as a key and parameters, for the UI to word. */
  msg: MessageRefSchema.optional(),
  /** Set when the skill was adopted by link: the folder the library entry points to. */
  linkTarget: z.string().optional(),
  /** Trash entry holding the version that `replace` pushed out. */
  trashId: z.string().optional(),
  /**
   * Set when the skill takes its SKILL.md `name`, not the name of the folder it came in
   * (`from`, the folder's name; `to`, the skill's name). Worded by `notices`.
   */
  renamed: z.object({ from: z.string(), to: z.string() }).optional(),
  /** Things the user should know beside the status (e.g. the rename), as keys and parameters. */
  notices: z.array(MessageRefSchema).optional(),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;

export const ImportSummarySchema = z.object({
  results: z.array(ImportResultSchema),
  /** Number of results with status `conflict` (the UI asks, then calls again with `resolutions`). */
  conflicts: z.number().int(),
  refused: z.number().int(),
  /** Journal entry id when anything on disk changed. */
  journalId: z.string().optional(),
});
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

const ResolutionFields = {
  /** Applies to every conflict without a per-skill resolution. */
  onConflict: ConflictChoiceSchema.optional(),
  /** Per-skill choice keyed by skill name, e.g. after the UI asked about each conflict. */
  resolutions: z.record(z.string(), ConflictChoiceSchema).optional(),
};

export const ImportPathsInputSchema = z.object({
  /** Skill folders, parent folders of skills, `.zip` or `.skill` archives (absolute paths). */
  paths: z.array(z.string().min(1)).min(1),
  ...ResolutionFields,
  /** Correlates `import-progress` events with this call. */
  importId: z.string().optional(),
});

export const LibrarySkillSchema = z.object({
  name: z.string(),
  /** Folder name under `library/` (equals `name` for everything SkillDock creates). */
  dirName: z.string(),
  dir: z.string(),
  mode: LibraryModeSchema,
  linkTarget: z.string().optional(),
  /** A link whose target is gone. */
  broken: z.boolean(),
  digest: z.string().optional(),
  description: z.string().optional(),
  diagnostics: z.array(DiagnosticSchema),
});
export type LibrarySkill = z.infer<typeof LibrarySkillSchema>;

export const AdoptableSkillSchema = z.object({
  path: z.string(),
  name: z.string().nullable(),
  dirName: z.string(),
  /** The user root it sits in and the agents that read that root. */
  root: z.string(),
  agents: z.array(z.string()),
  digest: z.string().optional(),
  /** `linked`: the library already links to this folder; `same`/`different`: a library skill has its name. */
  inLibrary: z.enum(['no', 'same', 'different', 'linked']),
  isLink: z.boolean(),
  diagnostics: z.array(DiagnosticSchema),
});
export type AdoptableSkill = z.infer<typeof AdoptableSkillSchema>;

export const TrashEntrySchema = z.object({
  id: z.string(),
  name: z.string(),
  time: z.string(),
  /** `undone`: an undo took it out of the library (redo, or restore, brings it back). */
  reason: z.enum(['deleted', 'replaced', 'undone']),
  mode: LibraryModeSchema,
  linkTarget: z.string().optional(),
  /** Where it was before it went to the trash. */
  originalDir: z.string(),
});
export type TrashEntry = z.infer<typeof TrashEntrySchema>;

/** One filesystem change of a journal entry, enough to revert it. */
export const JournalChangeSchema = z.discriminatedUnion('kind', [
  /** A folder, file or link created at `path` (digest of a folder, target of a link). */
  z.object({ kind: z.literal('created'), path: z.string(), digest: z.string().optional(), linkTarget: z.string().optional() }),
  /** An empty folder created to hold other changes (trash entries); undo removes it once empty. */
  z.object({ kind: z.literal('created-dir'), path: z.string() }),
  /** Something moved (renamed) from `from` to `to`. */
  z.object({ kind: z.literal('moved'), from: z.string(), to: z.string() }),
  /** A link at `path` removed; it pointed to `linkTarget`. */
  z.object({ kind: z.literal('unlinked'), path: z.string(), linkTarget: z.string() }),
  /** A small text file removed (trash bookkeeping); its content is kept to put it back. */
  z.object({ kind: z.literal('removed-file'), path: z.string(), content: z.string() }),
  /** An empty folder removed. */
  z.object({ kind: z.literal('removed-dir'), path: z.string() }),
  /**
   * Some keys of a JSON data file in SkillDock's home (deployments.json) set: `before` holds each
   * key's value before (JSON pointer, `/scopes/user/desired/pdf`; null: it was absent). Reverted
   * key by key, so an older operation's undo leaves the keys later operations set alone.
   */
  z.object({ kind: z.literal('patched-json'), path: z.string(), before: z.record(z.string(), z.unknown()) }),
]);
export type JournalChange = z.infer<typeof JournalChangeSchema>;

/**
 * One line of `journal.jsonl`. Open for other domains: any `op` name and extra fields are kept.
 * Undo reverts `changes` in reverse order, or calls a handler registered for the op.
 */
export const JournalEntrySchema = z
  .object({
    id: z.string(),
    op: z.string(),
    time: z.string(),
    summary: z.string().optional(),
    changes: z.array(JournalChangeSchema).optional(),
    /** For `op: 'undo'`: the id of the entry it reverted. */
    undoes: z.string().optional(),
  })
  .passthrough();
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/**
 * The kinds of operation the journal records, for clients to word (`journal.op.<kind>`). `undo`,
 * `redo`, `recovered` and `damaged` are records about other operations, not operations.
 */
export const OperationKindSchema = z.enum([
  'import',
  'replace',
  'keep-both',
  'adopt',
  'delete',
  'restore',
  'export',
  'edit',
  'create',
  'scripts-approve',
  'scripts-revoke',
  'update',
  'project-deploy',
  'deploy',
  'pin',
  'unpin',
  'undo',
  'redo',
  'recovered',
  'damaged',
]);
export type OperationKind = z.infer<typeof OperationKindSchema>;

/** Whether an operation can be undone (or redone) now; when not, why, coded. */
export const AvailabilitySchema = z.object({ ok: z.boolean(), reason: MessageRefSchema.optional() });
export type Availability = z.infer<typeof AvailabilitySchema>;

/** A journal entry as History shows it: what it touched, its state, what undo and redo would do. */
export const HistoryEntrySchema = JournalEntrySchema.extend({
  /** For an operation: in effect (`done`) or undone. Absent on records (undo, redo, recovered). */
  state: z.enum(['done', 'undone']).optional(),
  /** For an undo or redo record: the operation it acted on. */
  of: z.string().optional(),
  /** The operation in a few words (`journal.what.*`): "import of 5 skills", "export of pdf to Claude Code". */
  what: MessageRefSchema.optional(),
  /** What it touched: library skills, the agent whose folder it wrote, and paths outside the library. */
  touched: z.object({ skills: z.array(z.string()), agent: z.string().optional(), paths: z.array(z.string()) }).optional(),
  undo: AvailabilitySchema.optional(),
  redo: AvailabilitySchema.optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

const NameInput = z.object({ name: z.string().min(1) });

/** Which skills a bulk call acts on: names and globs, or `all`. */
export const SelectionInput = z.object({ names: z.array(z.string().min(1)).optional(), all: z.boolean().optional() });

export const libraryMethods = {
  importPaths: { input: ImportPathsInputSchema, output: ImportSummarySchema },
  listLibrary: { input: z.object({}), output: z.object({ skills: z.array(LibrarySkillSchema) }) },
  listAdoptable: {
    input: z.object({ agent: z.string().optional() }),
    output: z.object({ skills: z.array(AdoptableSkillSchema) }),
  },
  adoptSkills: {
    input: z.object({
      items: z.array(z.object({ path: z.string().min(1), mode: LibraryModeSchema })).min(1),
      ...ResolutionFields,
    }),
    output: ImportSummarySchema,
  },
  deleteSkill: {
    input: NameInput,
    output: z.object({ name: z.string(), trashId: z.string(), mode: LibraryModeSchema, journalId: z.string() }),
  },
  listTrash: { input: z.object({}), output: z.object({ items: z.array(TrashEntrySchema) }) },
  restoreSkill: {
    /**
     * Refused (`conflict`) while a skill of the same name is in the library, unless `as` gives
     * another name: the skill is restored under it (folder and frontmatter `name:`).
     */
    input: z.object({ id: z.string().min(1), as: z.string().min(1).optional() }),
    output: z.object({ name: z.string(), dir: z.string(), journalId: z.string() }),
  },
  exportSkill: {
    input: z.object({
      name: z.string().min(1),
      agent: z.string().min(1),
      mode: LibraryModeSchema,
      /** Which of the agent's user roots (default: the first in the registry). */
      root: z.string().optional(),
    }),
    output: z.object({
      path: z.string(),
      mode: LibraryModeSchema,
      status: z.enum(['exported', 'already-present']),
      journalId: z.string().optional(),
    }),
  },
  /**
   * Many skills to the trash in one operation (one journal entry, one undo). `names` may hold
   * globs (`beta-*`), matched against the library's names; a name that exists is taken literally.
   * A glob that matches nothing is refused (`select.no-match-library`), nothing moved.
   */
  deleteSkills: {
    input: SelectionInput,
    output: z.object({
      results: z.array(z.object({ name: z.string(), trashId: z.string(), mode: LibraryModeSchema })),
      journalId: z.string().optional(),
    }),
  },
  /** Many trash entries back in one operation: by id, or by name or glob (each name's newest entry). */
  restoreSkills: {
    input: z.object({
      ids: z.array(z.string().min(1)).optional(),
      names: z.array(z.string().min(1)).optional(),
      all: z.boolean().optional(),
    }),
    output: z.object({
      results: z.array(z.object({ name: z.string(), dir: z.string(), trashId: z.string() })),
      journalId: z.string().optional(),
    }),
  },
  /** Many library skills into an agent's user skills folder in one operation (names may be globs). */
  exportSkills: {
    input: SelectionInput.extend({ agent: z.string().min(1), mode: LibraryModeSchema, root: z.string().optional() }),
    output: z.object({
      results: z.array(
        z.object({ name: z.string(), path: z.string(), mode: LibraryModeSchema, status: z.enum(['exported', 'already-present']) }),
      ),
      journalId: z.string().optional(),
    }),
  },
  /**
   * Undo one operation: `id` (an operation's journal id), else the newest one in effect. Refused,
   * with a coded reason, when it was already undone or a later operation in effect touched the
   * same files (named in the reason). Skills it takes out of the library go to the trash.
   */
  undo: {
    input: z.object({ id: z.string().min(1).optional() }),
    output: z.object({ undone: JournalEntrySchema, what: MessageRefSchema, message: z.string(), journalId: z.string() }),
  },
  /** Redo an undone operation: `id`, else the one undone last. Refused like undo, with the reason. */
  redo: {
    input: z.object({ id: z.string().min(1).optional() }),
    output: z.object({ redone: JournalEntrySchema, what: MessageRefSchema, message: z.string(), journalId: z.string() }),
  },
  journal: {
    input: z.object({ limit: z.number().int().min(1).max(10_000).optional() }),
    output: z.object({
      /** Newest first, each with what it touched and whether it can be undone or redone now. */
      entries: z.array(HistoryEntrySchema),
      /** Lines of the journal that could not be read (each is a `damaged` entry where it was): said, coded. */
      warnings: z.array(MessageRefSchema).optional(),
    }),
  },
  /**
   * What a crash or a failed operation left behind: an interrupted operation, stale staging,
   * incomplete trash entries. `repair` rolls the interrupted operation back and sweeps the rest.
   */
  doctor: {
    input: z.object({ repair: z.boolean().optional() }),
    output: z.object({
      interrupted: z
        .object({
          op: z.string(),
          time: z.string(),
          changes: z.number().int(),
          /** Its journal entry is written: it had finished, and repair only clears what it left pending. */
          committed: z.boolean().optional(),
        })
        .nullable(),
      staleStaging: z.array(z.string()),
      incompleteTrash: z.array(z.string()),
      /** Damaged data files this engine found since it started: which, where the damaged copy went, what was used. */
      corruptFiles: z.array(
        z.object({
          file: z.string(),
          movedTo: z.string(),
          reason: z.string(),
          reasonCode: z.enum(['directory', 'json', 'version', 'migration', 'schema']),
          recoveredFrom: z.enum(['backup', 'defaults']),
        }),
      ),
      repaired: z.boolean(),
      rolledBack: z
        .object({
          op: z.string(),
          undone: z.number().int(),
          failed: z.array(z.object({ path: z.string(), reason: z.string() })),
          /** rolled back; found committed (kept, pending cleared); an undo finished. */
          outcome: z.enum(['rolled-back', 'committed', 'finished']).optional(),
        })
        .nullable(),
      /** Journal lines that could not be read; with repair, where the damaged copy was kept. */
      journalDamage: z
        .object({ lines: z.array(z.number().int()), keptAt: z.string().nullable(), msg: MessageRefSchema })
        .nullable()
        .optional(),
    }),
  },
} as const;

export const LibraryChangedEventSchema = z.object({
  type: z.literal('library-changed'),
  /** Library folder names added, removed or changed. */
  names: z.array(z.string()),
  op: z.string(),
});

export const ImportProgressEventSchema = z.object({
  type: z.literal('import-progress'),
  importId: z.string(),
  skillsDone: z.number().int(),
  skillsTotal: z.number().int(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  /** The skill being copied now. */
  current: z.string().optional(),
});

/** A data file was unreadable: moved aside, and the backup (or defaults) used. Tell the user. */
export const StoreCorruptEventSchema = z.object({
  type: z.literal('store-corrupt'),
  file: z.string(),
  movedTo: z.string(),
  reason: z.string(),
  reasonCode: z.enum(['directory', 'json', 'version', 'migration', 'schema']),
  recoveredFrom: z.enum(['backup', 'defaults']),
});

/** An operation interrupted by a crash was found and rolled back before the next one. */
export const OperationRolledBackEventSchema = z.object({
  type: z.literal('operation-rolled-back'),
  op: z.string(),
  /** When the interrupted operation began. */
  time: z.string(),
  undone: z.number().int(),
  /** Changes that could not be undone, with why (the paths are left for the user). */
  failed: z.array(z.object({ path: z.string(), reason: z.string() })),
});

export const libraryEvents = [
  LibraryChangedEventSchema,
  ImportProgressEventSchema,
  StoreCorruptEventSchema,
  OperationRolledBackEventSchema,
] as const;
