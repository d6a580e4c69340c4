import { z } from 'zod';
import { CUSTOM_AGENT_ID } from './custom-agent-rules.js';
import { settingsDefaults } from './settings-defaults.js';

export const LanguageSchema = z.enum(['en', 'zh-CN', 'zh-TW', 'ja']);
export type Language = z.infer<typeof LanguageSchema>;

export const ThemeSchema = z.enum(['light', 'dark', 'system']);
export const ScriptPolicySchema = z.enum(['allowed', 'ask', 'never']);
export type ScriptPolicy = z.infer<typeof ScriptPolicySchema>;
/** `skilldock mcp`: a skill whose scripts may not run is served without them, or not at all. */
export const McpUnapprovedSchema = z.enum(['withhold-scripts', 'hide']);
export type McpUnapproved = z.infer<typeof McpUnapprovedSchema>;

/** A user-defined agent (issue: agent registry); merged with the shipped registry. */
export const CustomAgentSchema = z.object({
  id: z.string().regex(CUSTOM_AGENT_ID, 'an agent id is 1-32 characters of a-z, 0-9 and -, starting with a letter or digit'),
  name: z.string().min(1),
  command: z.string().min(1),
  /** Native project skills dir, relative, e.g. `.myagent/skills`. */
  skillsDir: z.string().min(1),
  contextFile: z.string().min(1),
});
export type CustomAgent = z.infer<typeof CustomAgentSchema>;

const settingsFields = {
  /** null until the first run picked one from the OS language. */
  language: LanguageSchema.nullable(),
  theme: ThemeSchema,
  extraRoots: z.array(z.string()),
  /** Terminal command template; `{cwd}` and `{command}` are substituted. null = OS default. */
  terminalCommand: z.string().nullable(),
  workspaceCleanupDays: z.number().int().min(1).max(3650),
  customAgents: z.array(CustomAgentSchema),
  scriptPolicy: ScriptPolicySchema,
  mcpUnapproved: McpUnapprovedSchema,
  /** The agent CLI `skilldock verify` runs, by agent id, where it is not the registry's command on PATH. */
  agentCli: z.record(z.string(), z.string().min(1)),
  /** Opt-in: read the agents' own session logs (Claude Code, Codex) for the usage ledger. */
  usageReadLogs: z.boolean(),
};

export const SettingsSchema = z.object({
  language: settingsFields.language.default(settingsDefaults.language),
  theme: settingsFields.theme.default(settingsDefaults.theme),
  extraRoots: settingsFields.extraRoots.default([]),
  terminalCommand: settingsFields.terminalCommand.default(settingsDefaults.terminalCommand),
  workspaceCleanupDays: settingsFields.workspaceCleanupDays.default(settingsDefaults.workspaceCleanupDays),
  customAgents: settingsFields.customAgents.default([]),
  scriptPolicy: settingsFields.scriptPolicy.default(settingsDefaults.scriptPolicy),
  mcpUnapproved: settingsFields.mcpUnapproved.default(settingsDefaults.mcpUnapproved),
  agentCli: settingsFields.agentCli.default({}),
  usageReadLogs: settingsFields.usageReadLogs.default(settingsDefaults.usageReadLogs),
});
export type Settings = z.infer<typeof SettingsSchema>;

/** A patch names only what changes: no defaults here, or zod would fill (and reset) the rest. */
export const SettingsPatchSchema = z.object(settingsFields).partial();

export const settingsMethods = {
  getSettings: { input: z.object({}), output: SettingsSchema },
  updateSettings: { input: SettingsPatchSchema, output: SettingsSchema },
} as const;

export const SettingsChangedEventSchema = z.object({
  type: z.literal('settings-changed'),
  settings: SettingsSchema,
});

export const settingsEvents = [SettingsChangedEventSchema] as const;
