import { z } from 'zod';
import { MessageRefSchema } from './messages.js';
import { FileChoiceSchema, UpdateFileSchema } from './sources.js';

// Deployments: library skills SkillDock keeps in each agent's own skills folders (src/deploy/).
// The user chooses per skill and agent; SkillDock chooses the folder (several agents read one),
// places a link (default) or a copy, records it in `<home>/deployments.json`, and reports what is
// on disk in every folder an agent reads.

export const DeployModeSchema = z.enum(['link', 'copy']);
export type DeployMode = z.infer<typeof DeployModeSchema>;

/** What an entry in an agent's folder is, as SkillDock sees it. */
export const DeployStateSchema = z.enum(['in-sync', 'drifted', 'foreign', 'broken', 'shadowed', 'duplicate', 'missing']);
export type DeployState = z.infer<typeof DeployStateSchema>;

/** Why an entry is not in sync (`missing`: wanted or recorded, not on disk). */
export const DeployReasonSchema = z.enum([
  'missing',
  'link-elsewhere',
  'replaced',
  'edited',
  'outdated',
  'dangling',
  'no-skill-md',
  'mode',
  'read-twice',
  'shadowed-by',
]);
export type DeployReason = z.infer<typeof DeployReasonSchema>;

export const DeployEntrySchema = z.object({
  /** The entry's path (`<folder>/<name>`). */
  path: z.string(),
  folder: z.string(),
  /** The entry's folder name (the skill's name for what SkillDock placed). */
  name: z.string(),
  state: DeployStateSchema,
  reason: DeployReasonSchema.optional(),
  /** SkillDock placed it (it is in the record). */
  managed: z.boolean(),
  /** On disk: a link, a folder, or nothing (wanted but missing). */
  kind: z.enum(['link', 'dir', 'file', 'none']),
  /** The mode SkillDock placed it with or wants it in. */
  mode: DeployModeSchema.optional(),
  linkTarget: z.string().optional(),
  /** Agents reading this folder. */
  agents: z.array(z.string()),
  /** For read-twice / shadowed: the other entry of the same name an agent reads. */
  other: z.string().optional(),
});
export type DeployEntry = z.infer<typeof DeployEntrySchema>;

/** A folder an agent reads, and whether SkillDock can write there. */
export const DeployFolderSchema = z.object({
  path: z.string(),
  agents: z.array(z.string()),
  exists: z.boolean(),
  /** Why SkillDock will not write here (null: it can). */
  problem: MessageRefSchema.nullable(),
  /** What the user should know about it (`deploy.other-filesystem`: copies are placed here, not links). */
  notice: MessageRefSchema.optional(),
});
export type DeployFolder = z.infer<typeof DeployFolderSchema>;

/** One cell of the matrix: what the user asked for skill × agent and what the agent gets. */
export const DeployCellSchema = z.object({
  skill: z.string(),
  agent: z.string(),
  /** The user asked for it (with this mode), or not. */
  wanted: DeployModeSchema.nullable(),
  /** The agent reads the skill from a folder SkillDock manages (asked or through another agent). */
  on: z.boolean(),
  /** Turned on by another agent's choice (the agents that asked). */
  via: z.array(z.string()),
  /** The worst state among the entries this agent reads for this skill. */
  state: DeployStateSchema.nullable(),
});
export type DeployCell = z.infer<typeof DeployCellSchema>;

export const DeployStatusSchema = z.object({
  agents: z.array(z.object({ id: z.string(), name: z.string(), folders: z.array(z.string()) })),
  folders: z.array(DeployFolderSchema),
  entries: z.array(DeployEntrySchema),
  cells: z.array(DeployCellSchema),
  /** Counts of entries by state. */
  counts: z.record(z.string(), z.number()),
});
export type DeployStatus = z.infer<typeof DeployStatusSchema>;

/** A step of an apply: what happens to one entry, or why it does not. */
export const DeployStepSchema = z.object({
  action: z.enum(['place', 'replace', 'remove', 'forget', 'blocked', 'conflict']),
  path: z.string(),
  skill: z.string(),
  folder: z.string(),
  mode: DeployModeSchema.optional(),
  agents: z.array(z.string()),
  /** Why it is blocked or a conflict, or what a replace replaces. */
  why: MessageRefSchema.optional(),
});
export type DeployStep = z.infer<typeof DeployStepSchema>;

export const DeployChangeSchema = z.object({
  skills: z.array(z.string().min(1)).min(1),
  /** Agent ids; empty with `allAgents`. */
  agents: z.array(z.string().min(1)).default([]),
  allAgents: z.boolean().default(false),
  /** On with this mode, or off (null). */
  mode: DeployModeSchema.nullable(),
});
export type DeployChange = z.input<typeof DeployChangeSchema>;

/** Explicit choices for entries SkillDock would not touch on its own. */
export const DeployChoicesSchema = z.object({
  /** Foreign entries (by path) the user chose to replace: each goes to SkillDock's trash first. */
  take: z.array(z.string()).default([]),
  /** Copies edited in place (by path) to put back to the library's version (the edit goes to the trash). */
  restore: z.array(z.string()).default([]),
  /** Only preview: nothing is changed. */
  dryRun: z.boolean().default(false),
  /** Unapproved scripts or high risk to every agent: the user has seen the question and goes on. */
  confirmed: z.boolean().default(false),
});

export const DeployResultSchema = z.object({
  steps: z.array(DeployStepSchema),
  /** Per skill, the agents that get it without being asked (they read a folder chosen for another). */
  alsoOn: z.record(z.string(), z.array(z.string())),
  /** Set when something changed: the journal entry (one undo reverts the whole apply). */
  journalId: z.string().optional(),
  /** Questions to answer before this apply goes on (trust); nothing was changed. */
  ask: z.array(MessageRefSchema).default([]),
  /** What the user should know about what was done (links asked for, copies placed: another filesystem). */
  notices: z.array(MessageRefSchema).default([]),
});
export type DeployResult = z.infer<typeof DeployResultSchema>;

export const deployMethods = {
  /** Every agent folder's entries, their states, and the skill × agent matrix. */
  deployStatus: {
    input: z.object({ agent: z.string().optional(), deep: z.boolean().default(false) }),
    output: DeployStatusSchema,
  },
  /** Turn skills on (mode) or off (null) for agents and apply at once (one journal entry). */
  deploySet: { input: DeployChangeSchema.extend(DeployChoicesSchema.shape), output: DeployResultSchema },
  /** Make the folders match the chosen state again (drift, missing entries). */
  deployRepair: { input: DeployChoicesSchema, output: DeployResultSchema },
  /** The diff of a copy edited in place against the library's version. */
  deployDiff: {
    input: z.object({ path: z.string().min(1) }),
    output: z.object({
      path: z.string(),
      skill: z.string(),
      files: z.array(z.object({ file: z.string(), library: z.string().nullable(), deployed: z.string().nullable() })),
    }),
  },
  /**
   * Keep an in-place edit: the library's version and the copy merged against the version placed
   * (3-way, like a source update: `mine` is the library's, `upstream` the copy's). Conflicts stop it
   * (no journalId) with each file's versions, until `resolutions` settle them. Done: one journal
   * entry, the old library version in the trash, every copy of the skill the new version.
   */
  deployAdoptEdit: {
    input: z.object({ path: z.string().min(1), resolutions: z.record(z.string(), FileChoiceSchema).optional() }),
    output: z.object({
      skill: z.string(),
      journalId: z.string().optional(),
      files: z.array(UpdateFileSchema),
      conflicts: z.number(),
    }),
  },
} as const;

export const DeployChangedEventSchema = z.object({
  type: z.literal('deploy-changed'),
  /** Folders whose entries changed (on disk, by anyone). */
  folders: z.array(z.string()),
});

export const deployEvents = [DeployChangedEventSchema] as const;
