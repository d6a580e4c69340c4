import { z } from 'zod';
import { MessageRefSchema } from './messages.js';

// Launch: per-conversation workspaces, skill state dirs and the write policy.

/** One agent of the registry as front doors show it (the full definition stays in the engine). */
export const AgentInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  command: z.string().nullable(),
  evidence: z.enum(['observed', 'convention', 'docs', 'custom']),
  testedVersion: z.string().nullable(),
  nativeSkillsDir: z.string(),
  contextFile: z.string(),
  projectDirs: z.array(z.string()),
  userDirs: z.array(z.string()),
  trustEnv: z.record(z.string(), z.string()),
  extraDirFlag: z.string().nullable(),
  /** The agent loads skills from a dir handed over with its extra-dir flag (verified with the CLI). */
  extraDirLoadsSkills: z.boolean(),
  /** Command found on PATH (null when the agent has no command). */
  installed: z.boolean().nullable(),
  /**
   * The CLI version on which "Check with the real agent" (`verifyAgent`) was proven; null when
   * SkillDock cannot point this agent's CLI at its recorder (registry `probe`).
   */
  verifyCheckedOn: z.string().nullable(),
});
export type AgentInfo = z.infer<typeof AgentInfoSchema>;

export const LaunchInputSchema = z.object({
  /** Assistant id or unique name. */
  assistant: z.string().trim().min(1),
  /**
   * The user's own project dir: nothing is written into it. Absent: the assistant's default
   * workspace, or a fresh temporary workspace when it has none (or `temporary` is set).
   */
  workspace: z.string().optional(),
  temporary: z.boolean().optional(),
  /**
   * Under the "ask" script policy, what to do with an attached skill whose scripts are not approved
   * (changed since approval, or never approved): `refuse` the launch (default; the error names the
   * skills), `skip` = link it with its scripts denied, `omit` = launch without it.
   */
  onScriptsChanged: z.enum(['refuse', 'skip', 'omit']).optional(),
});
export type LaunchInput = z.input<typeof LaunchInputSchema>;

export const LaunchModeSchema = z.enum(['native', 'index']);
export type LaunchMode = z.infer<typeof LaunchModeSchema>;

export const SkillLinkSchema = z.object({
  skill: z.string(),
  /** Where the link sits (workspace or per-conversation view). */
  path: z.string(),
  /** The real skill folder it points to. */
  target: z.string(),
  /** Checked after creation: resolves to `target` and holds SKILL.md. */
  ok: z.boolean(),
  error: z.string().optional(),
  /**
   * Not a link: a folder SkillDock made with the skill's instructions and without its scripts (they
   * may not run), so nothing in the workspace leads to them.
   */
  materialized: z.boolean().optional(),
  /** The skill's files left out of that folder (relative paths). */
  withheld: z.array(z.string()).optional(),
});
export type SkillLink = z.infer<typeof SkillLinkSchema>;

export const StateDirSchema = z.object({
  skill: z.string(),
  id: z.string(),
  dir: z.string(),
  uri: z.string(),
});
export type StateDir = z.infer<typeof StateDirSchema>;

/** A hard-coded home path a skill mentions and the state dir it maps to. */
export const LegacyMappingSchema = z.object({
  skill: z.string(),
  /** As the skill writes it, `~/code/` or `~/.tool.json`. */
  from: z.string(),
  /** Absolute form of `from` (a dir ends with the path separator). */
  fromPath: z.string(),
  /** Absolute state dir (or file inside it) it redirects to. */
  to: z.string(),
});
export type LegacyMapping = z.infer<typeof LegacyMappingSchema>;

/** A skill that could not be set up for the conversation (reported loudly, never skipped silently). */
export const LaunchProblemSchema = z.object({
  skill: z.string().nullable(),
  code: z.enum([
    'missing',
    'link-failed',
    'bad-name',
    'duplicate-name',
    'no-state-id',
    'script-blocked',
    'script-omitted',
    'guard',
    // the agent runs no hook and has no sandbox SkillDock turns on: not running the scripts is only asked (OpenCode)
    'script-advisory',
  ]),
  message: z.string(),
  /** `message` as a key and parameters, for the UI to word. */
  msg: MessageRefSchema.optional(),
});
export type LaunchProblem = z.infer<typeof LaunchProblemSchema>;

export const LaunchResultSchema = z.object({
  conversationId: z.string(),
  /** Where the agent runs: the temporary workspace or the user's project. */
  workspace: z.string(),
  temporary: z.boolean(),
  mode: LaunchModeSchema,
  agent: z.string(),
  links: z.array(SkillLinkSchema),
  stateDirs: z.array(StateDirSchema),
  /** Persona + skill state rules; null in index mode (they are in the first message). */
  contextFile: z.string().nullable(),
  /** argv; the first message (index mode) is not in it: see `firstMessage`. */
  command: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  /** Index mode only: persona, state rules and the skills index, to send as the first message. */
  firstMessage: z.string().optional(),
  legacy: z.array(LegacyMappingSchema),
  problems: z.array(LaunchProblemSchema),
});
export type LaunchResult = z.infer<typeof LaunchResultSchema>;

export const ConversationSkillSchema = z.object({
  name: z.string(),
  digest: z.string(),
  dir: z.string(),
  stateId: z.string().nullable(),
});

/** The full record of a launch (`<home>/conversations/<id>/conversation.json`). */
export const ConversationSchema = z.object({
  id: z.string(),
  assistantId: z.string(),
  assistantName: z.string(),
  agent: z.string(),
  mode: LaunchModeSchema,
  temporary: z.boolean(),
  workspace: z.string(),
  /** SkillDock's own per-conversation dir (`<home>/conversations/<id>/`): skills view, pid file. */
  dataDir: z.string(),
  contextFile: z.string().nullable(),
  createdAt: z.string(),
  /** The exact skills the conversation was launched with. */
  skills: z.array(ConversationSkillSchema),
  stateDirs: z.array(StateDirSchema),
  legacy: z.array(LegacyMappingSchema),
  /** Files the agent must not rewrite (the write guard itself). */
  guardFiles: z.array(z.string()).default([]),
  command: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  removedAt: z.string().nullable().default(null),
});
export type Conversation = z.infer<typeof ConversationSchema>;

/**
 * What the conversation index (`<home>/conversations/index.jsonl`, one line per launch) keeps per
 * conversation, also after cleanup. The full record (state dirs, legacy mappings, command, env)
 * lives in `<dataDir>/conversation.json` while the conversation's data dir exists.
 */
export const ConversationIndexSchema = ConversationSchema.pick({
  id: true,
  assistantId: true,
  assistantName: true,
  agent: true,
  mode: true,
  temporary: true,
  workspace: true,
  dataDir: true,
  createdAt: true,
  removedAt: true,
}).extend({ skills: z.array(z.object({ name: z.string(), digest: z.string() })) });
export type ConversationIndex = z.infer<typeof ConversationIndexSchema>;

export const WorkspaceInfoSchema = z.object({
  conversationId: z.string(),
  assistantName: z.string(),
  agent: z.string(),
  workspace: z.string(),
  temporary: z.boolean(),
  mode: LaunchModeSchema,
  createdAt: z.string(),
  /** Last time the agent was seen running in it (or createdAt). */
  lastUsedAt: z.string(),
  ageMs: z.number(),
  exists: z.boolean(),
  inUse: z.boolean(),
  /** Why it counts as in use (`pid 1234`, `process 99 has its cwd inside`). */
  inUseReason: z.string().optional(),
  removedAt: z.string().nullable(),
  skills: z.array(z.object({ name: z.string(), digest: z.string() })),
});
export type WorkspaceInfo = z.infer<typeof WorkspaceInfoSchema>;

export const CleanInputSchema = z.object({
  /** Remove only workspaces unused for at least this long; default: settings.workspaceCleanupDays. */
  olderThanMs: z.number().int().min(0).optional(),
  dryRun: z.boolean().optional(),
});

export const CleanResultSchema = z.object({
  /** `temporary: false`: the user's workspace was kept; only SkillDock's skills view for it went. */
  removed: z.array(z.object({ conversationId: z.string(), workspace: z.string(), temporary: z.boolean(), linksRemoved: z.number().int() })),
  kept: z.array(z.object({ conversationId: z.string(), workspace: z.string(), reason: z.string() })),
  dryRun: z.boolean(),
});
export type CleanResult = z.infer<typeof CleanResultSchema>;

export const WriteRuleSchema = z.enum([
  'workspace',
  'state-dir',
  'temp',
  'skill-folder',
  'guard-file',
  'protected',
  'legacy-path',
  'outside',
]);

export const WriteDecisionSchema = z.object({
  /** The path asked about, absolute. */
  path: z.string(),
  allowed: z.boolean(),
  rule: WriteRuleSchema,
  reason: z.string(),
  /** Where a denied legacy-path write should go instead. */
  redirect: z.string().optional(),
  skill: z.string().optional(),
  conversationId: z.string().nullable(),
});
export type WriteDecision = z.infer<typeof WriteDecisionSchema>;

export const CheckWriteInputSchema = z.object({
  path: z.string().min(1),
  conversationId: z.string().optional(),
  /** Base for a relative path (the agent's cwd); default: the conversation's workspace. */
  cwd: z.string().optional(),
});

export const StateResolutionSchema = z.object({
  uri: z.string(),
  id: z.string(),
  path: z.string(),
  exists: z.boolean(),
});

export const OpenTerminalResultSchema = z.object({
  conversationId: z.string(),
  /** The terminal program and its arguments as spawned. */
  terminal: z.array(z.string()),
  /** The launcher script the terminal runs (cd, env, the agent). */
  script: z.string(),
});

export const launchMethods = {
  listAgents: { input: z.object({}), output: z.array(AgentInfoSchema) },
  launchAssistant: { input: LaunchInputSchema, output: LaunchResultSchema },
  /** Open a launched conversation's agent in the user's terminal (settings.terminalCommand or the OS default). */
  openInTerminal: { input: z.object({ conversationId: z.string().min(1) }), output: OpenTerminalResultSchema },
  listWorkspaces: { input: z.object({}), output: z.array(WorkspaceInfoSchema) },
  cleanWorkspaces: { input: CleanInputSchema, output: CleanResultSchema },
  resolveStateUri: { input: z.object({ uri: z.string().min(1) }), output: StateResolutionSchema },
  checkWrite: { input: CheckWriteInputSchema, output: WriteDecisionSchema },
} as const;

export const ConversationLaunchedEventSchema = z.object({
  type: z.literal('conversation-launched'),
  conversationId: z.string(),
  assistantId: z.string(),
  workspace: z.string(),
  problems: z.number().int(),
});

export const WorkspacesCleanedEventSchema = z.object({
  type: z.literal('workspaces-cleaned'),
  removed: z.array(z.string()),
});

export const launchEvents = [ConversationLaunchedEventSchema, WorkspacesCleanedEventSchema] as const;
