import type { Settings } from './settings.js';

// What settings are before the user changed any, without zod: SettingsSchema fills these in
// (settings.ts), and a process that never loads zod (the CLI's lean commands) starts from them.

export const settingsDefaults = {
  language: null,
  theme: 'system',
  extraRoots: [],
  terminalCommand: null,
  workspaceCleanupDays: 7,
  customAgents: [],
  scriptPolicy: 'ask',
  mcpUnapproved: 'withhold-scripts',
  agentCli: {},
  usageReadLogs: false,
} as const;

/** A fresh copy of the default settings (equal to `SettingsSchema.parse({})`). */
export function defaultSettings(): Settings {
  return { ...settingsDefaults, extraRoots: [], customAgents: [], agentCli: {} };
}
