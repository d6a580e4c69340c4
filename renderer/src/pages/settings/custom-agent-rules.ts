// The Settings form's checks for a custom agent, so it can say what is wrong as the user types.
// The rules themselves are the contract's (the engine checks every save with the same functions
// and stays the authority); this file only maps them to the form's i18n keys.
import {
  CUSTOM_AGENT_ID,
  CUSTOM_AGENT_PATH_MAX,
  pathsOverlap,
  skillsDirProblem,
  workspacePathProblem,
} from '../../../../src/contract/custom-agent-rules';

export type ProblemKey =
  | 'required'
  | 'idFormat'
  | 'idBuiltin'
  | 'idTaken'
  | 'pathAbsolute'
  | 'pathParent'
  | 'pathBackslash'
  | 'pathSegments'
  | 'pathChars'
  | 'pathTooLong'
  | 'pathOverlap'
  | 'skillsDirReserved';

/** An i18n key under `settings.customAgents.errors` and its interpolation values, or null = fine. */
export type Problem = { key: ProblemKey; values?: { id?: string; max?: string; folder?: string } } | null;

export const ID_PATTERN = CUSTOM_AGENT_ID;

export function idProblem(raw: string | undefined, shippedIds: readonly string[], customIds: readonly string[]): Problem {
  const id = (raw ?? '').trim();
  if (!id) return { key: 'required' };
  if (!ID_PATTERN.test(id)) return { key: 'idFormat' };
  if (shippedIds.includes(id)) return { key: 'idBuiltin', values: { id } };
  if (customIds.includes(id)) return { key: 'idTaken', values: { id } };
  return null;
}

export function requiredProblem(raw: string | undefined): Problem {
  return (raw ?? '').trim() ? null : { key: 'required' };
}

const PATH_KEYS: Record<NonNullable<ReturnType<typeof workspacePathProblem>>['code'], ProblemKey> = {
  empty: 'required',
  'too-long': 'pathTooLong',
  'control-char': 'pathChars',
  backslash: 'pathBackslash',
  absolute: 'pathAbsolute',
  drive: 'pathAbsolute',
  home: 'pathAbsolute',
  colon: 'pathChars',
  'empty-segment': 'pathSegments',
  'dot-segment': 'pathSegments',
  parent: 'pathParent',
  'trailing-dot-or-space': 'pathChars',
};

/** A relative path that stays inside the workspace on every OS (the contract's rule). */
export function pathProblem(raw: string | undefined): Problem {
  const p = workspacePathProblem((raw ?? '').trim());
  if (!p) return null;
  const key = PATH_KEYS[p.code];
  return key === 'pathTooLong' ? { key, values: { max: String(CUSTOM_AGENT_PATH_MAX) } } : { key };
}

/** The skills dir: a workspace path that is not inside .git nor an agent's own settings folder. */
export function skillsDirFieldProblem(raw: string | undefined): Problem {
  const p = pathProblem(raw);
  if (p) return p;
  const r = skillsDirProblem((raw ?? '').trim());
  return r ? { key: 'skillsDirReserved', values: { folder: r.folder } } : null;
}

/** The context file may not be the skills dir, nor sit inside it (or hold it). */
export function overlapProblem(skillsDir: string | undefined, contextFile: string | undefined): Problem {
  const a = (skillsDir ?? '').trim();
  const b = (contextFile ?? '').trim();
  if (!a || !b) return null;
  return pathsOverlap(a, b) ? { key: 'pathOverlap' } : null;
}
