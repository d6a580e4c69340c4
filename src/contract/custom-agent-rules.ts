// What a custom agent's fields must be, as plain functions: the engine checks every save with them
// (src/settings/custom-agents.ts) and the Settings form checks as the user types, from one copy.
// They return problem codes; each side words them (English errors / the UI's i18n keys).

export const CUSTOM_AGENT_ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
export const CUSTOM_AGENT_PATH_MAX = 200;

/** Why a value is not a relative path that stays inside the workspace on every OS. */
export type WorkspacePathProblem =
  | { code: 'empty' }
  | { code: 'too-long'; max: number }
  | { code: 'control-char' }
  | { code: 'backslash' }
  | { code: 'absolute' }
  | { code: 'drive' }
  | { code: 'colon' }
  | { code: 'home' }
  | { code: 'empty-segment' }
  | { code: 'parent' }
  | { code: 'dot-segment' }
  | { code: 'trailing-dot-or-space'; segment: string };

/**
 * The launcher joins `skillsDir` and `contextFile` onto a workspace and writes there, so each must
 * name a place inside it on every OS. `value` is checked as given (trim it first if the caller does).
 */
export function workspacePathProblem(value: string): WorkspacePathProblem | null {
  if (!value) return { code: 'empty' };
  if (value.length > CUSTOM_AGENT_PATH_MAX) return { code: 'too-long', max: CUSTOM_AGENT_PATH_MAX };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return { code: 'control-char' };
  // On Windows `\` separates segments, so `..\..` climbs out even where `/` is checked.
  if (value.includes('\\')) return { code: 'backslash' };
  if (value.startsWith('/')) return { code: 'absolute' };
  if (/^[A-Za-z]:/.test(value)) return { code: 'drive' };
  // `:` after a name is an NTFS alternate data stream; nothing legitimate needs it here.
  if (value.includes(':')) return { code: 'colon' };
  if (value.startsWith('~')) return { code: 'home' };
  for (const segment of value.split('/')) {
    if (segment === '') return { code: 'empty-segment' };
    if (segment === '..') return { code: 'parent' };
    if (segment === '.') return { code: 'dot-segment' };
    // Windows drops trailing dots and spaces from a name, turning `.. ` or `...` into `..`.
    if (/[. ]$/.test(segment)) return { code: 'trailing-dot-or-space', segment };
  }
  return null;
}

/** The context file and the skills dir are the same path, or one lies inside the other. */
export function pathsOverlap(skillsDir: string, contextFile: string): boolean {
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);
  return within(contextFile, skillsDir) || within(skillsDir, contextFile);
}

/**
 * A path that is, lies inside, or holds an agent's own settings, hooks or config (`configFiles`:
 * every shipped agent's, from the registry), or lies inside `.git` or any agent folder's `hooks`:
 * a custom agent's context file or skills dir there would let a launch overwrite what an agent
 * runs. Compared without case (case-insensitive file systems). `path` names the file it hits.
 */
export function agentConfigProblem(value: string, configFiles: readonly string[]): { code: 'agent-config'; path: string } | null {
  const v = value.toLowerCase();
  const segments = v.split('/');
  if (segments[0] === '.git') return { code: 'agent-config', path: '.git' };
  if (RESERVED_SETTINGS_DIRS.includes(segments[0]!) && segments.includes('hooks'))
    return { code: 'agent-config', path: `${segments[0]}/hooks` };
  for (const c of configFiles) {
    const lc = c.toLowerCase();
    if (v === lc || v.startsWith(`${lc}/`) || lc.startsWith(`${v}/`)) return { code: 'agent-config', path: c };
  }
  return null;
}

/** Folders that hold git's or an agent's own settings and hooks: never a custom agent's skills dir. */
export const RESERVED_SETTINGS_DIRS = ['.git', '.claude', '.gemini', '.codex', '.qwen', '.opencode', '.cursor', '.github', '.vscode'];

/**
 * A skills dir inside `.git` (its hooks run code) or that is another agent's settings folder itself
 * (or its hooks): links placed there would change what git or that agent runs. A skills folder
 * below such a folder (`.claude/skills`) is fine, except under `.git` and any `hooks`.
 */
export function skillsDirProblem(value: string): { code: 'git-dir' | 'settings-dir'; folder: string } | null {
  const segments = value.split('/');
  if (segments[0] === '.git') return { code: 'git-dir', folder: '.git' };
  if (segments.length === 1 && RESERVED_SETTINGS_DIRS.includes(segments[0]!)) return { code: 'settings-dir', folder: segments[0]! };
  if (RESERVED_SETTINGS_DIRS.includes(segments[0]!) && segments[1] === 'hooks')
    return { code: 'settings-dir', folder: `${segments[0]}/hooks` };
  return null;
}
