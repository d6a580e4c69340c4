import { workspacePathProblem as checkWorkspacePath } from '../contract/custom-agent-rules.js';

// A custom agent's `skillsDir` and `contextFile` in English words, for the engine's errors: used when
// settings are saved (src/settings/custom-agents.ts) and before a custom agent from settings.json is
// used (customAgentProblem in registry.ts). Here, below settings, so agents/ never imports settings/.

/** Why `value` is not a relative path inside the workspace (in words), or null when it is one. */
export function workspacePathProblem(value: string): string | null {
  const p = checkWorkspacePath(value);
  if (!p) return null;
  switch (p.code) {
    case 'empty':
      return 'is empty';
    case 'too-long':
      return `is longer than ${p.max} characters`;
    case 'control-char':
      return 'contains a control character';
    case 'backslash':
      return 'must use / between folders, not \\';
    case 'absolute':
      return 'must be relative to the workspace, not an absolute path';
    case 'drive':
      return 'must not start with a drive like C:';
    case 'colon':
      return 'must not contain ":"';
    case 'home':
      return 'must not start with ~ (it is relative to the workspace, not the home folder)';
    case 'empty-segment':
      return 'must not have empty segments (a leading, trailing or doubled /)';
    case 'parent':
      return 'must not contain ".." (it has to stay inside the workspace)';
    case 'dot-segment':
      return 'must not contain "." segments (write it without ./)';
    case 'trailing-dot-or-space':
      return `must not have a segment ending in a dot or space ("${p.segment}")`;
  }
}
