// The engine's rules for a custom agent (src/settings/custom-agents.ts), repeated here so the form
// can say what is wrong as the user types. The engine stays the authority: it checks again on save,
// and its refusal is shown as is. The renderer may not import the engine, hence the copy.

export type ProblemKey =
  | 'required' | 'idFormat' | 'idBuiltin' | 'idTaken'
  | 'pathAbsolute' | 'pathParent' | 'pathBackslash' | 'pathSegments' | 'pathChars' | 'pathTooLong' | 'pathOverlap';

/** An i18n key under `settings.customAgents.errors` and its interpolation values, or null = fine. */
export type Problem = { key: ProblemKey; values?: { id?: string; max?: string } } | null;

export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
const MAX_PATH = 200;

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

/** Mirrors `workspacePathProblem`: a relative path that stays inside the workspace on every OS. */
export function pathProblem(raw: string | undefined): Problem {
  const value = (raw ?? '').trim();
  if (!value) return { key: 'required' };
  if (value.length > MAX_PATH) return { key: 'pathTooLong', values: { max: String(MAX_PATH) } };
  if (value.includes('\\')) return { key: 'pathBackslash' };
  if (value.startsWith('/') || /^[A-Za-z]:/.test(value) || value.startsWith('~')) return { key: 'pathAbsolute' };
  if (value.includes(':') || /[\u0000-\u001f\u007f]/.test(value)) return { key: 'pathChars' };
  const segments = value.split('/');
  if (segments.includes('..')) return { key: 'pathParent' };
  if (segments.some((s) => s === '' || s === '.')) return { key: 'pathSegments' };
  if (segments.some((s) => /[. ]$/.test(s))) return { key: 'pathChars' };
  return null;
}

/** The context file may not be the skills dir, nor sit inside it (or hold it). */
export function overlapProblem(skillsDir: string | undefined, contextFile: string | undefined): Problem {
  const a = (skillsDir ?? '').trim();
  const b = (contextFile ?? '').trim();
  if (!a || !b) return null;
  const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);
  return within(a, b) || within(b, a) ? { key: 'pathOverlap' } : null;
}
