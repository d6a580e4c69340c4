import type { MessageRef } from '../contract/index.js';
import { formatMessage } from '../contract/messages-text.js';
import { workspacePathProblem as checkWorkspacePath } from '../contract/custom-agent-rules.js';

// A custom agent's `skillsDir` and `contextFile` problems as messages, for the engine's errors: used
// when settings are saved (src/settings/custom-agents.ts) and before a custom agent from
// settings.json is used (customAgentProblem in registry.ts). Here, below settings, so agents/ never
// imports settings/. Keys and English in src/contract/messages-settings.ts.

/** Why `value` is not a relative path inside the workspace, as a message; null when it is one. */
export function workspacePathMessage(value: string): MessageRef | null {
  const p = checkWorkspacePath(value);
  if (!p) return null;
  const key = `workspace-path.${p.code}`;
  if (p.code === 'too-long') return { key, params: { max: p.max } };
  if (p.code === 'trailing-dot-or-space') return { key, params: { segment: p.segment } };
  return { key };
}

/** The same in English words (the CLI's and settings.json's). */
export function workspacePathProblem(value: string): string | null {
  const msg = workspacePathMessage(value);
  return msg ? formatMessage(msg) : null;
}
