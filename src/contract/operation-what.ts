import type { MessageRef } from './message-ref.js';

// An operation in a few words, as a message (`journal.what.*`): "import of 5 skills", "export of
// pdf to Claude Code". Plain data, no zod: the engine words History and its refusals with it, and
// the renderer names an operation on its toast before it asks the engine anything.

const ONE_OR_MANY = new Set([
  'import',
  'replace',
  'keep-both',
  'adopt',
  'update',
  'delete',
  'restore',
  'scripts-approve',
  'pin',
  'unpin',
  'deploy',
]);
const ONE = new Set(['export', 'edit', 'create', 'scripts-revoke']);

export interface OperationFacts {
  /** The journal op (`import`, `export`...). */
  op: string;
  /** The library skills it changed. */
  skills: readonly string[];
  /** For an export: the agent's name. */
  agent?: string;
  /** For an edit: the file in the skill. */
  path?: string;
  /** For a project deploy: the project folder. */
  project?: string;
}

export function operationWhat(f: OperationFacts): MessageRef {
  const name = f.skills[0] ?? '';
  const count = f.skills.length;
  if (f.op === 'edit' && f.path) return { key: 'journal.what.edit-file', params: { path: f.path, name } };
  if (f.op === 'project-deploy') return { key: 'journal.what.project-deploy', params: { project: f.project ?? '' } };
  if (f.op === 'export')
    return count > 1
      ? { key: 'journal.what.export-many', params: { count, agent: f.agent ?? '' } }
      : { key: 'journal.what.export-one', params: { name, agent: f.agent ?? '' } };
  if (count <= 1 && (ONE.has(f.op) || ONE_OR_MANY.has(f.op))) return { key: `journal.what.${f.op}-one`, params: { name } };
  if (ONE_OR_MANY.has(f.op)) return { key: `journal.what.${f.op}-many`, params: { count } };
  return count > 1 ? { key: 'journal.what.other-many', params: { op: f.op, count } } : { key: 'journal.what.other', params: { op: f.op } };
}

/** The op of an import's journal entry: the one status every changed skill shares, else `fallback`. */
export function importOp(statuses: readonly string[], fallback: string): string {
  const kinds = new Set(statuses.filter((s) => ['imported', 'replaced', 'kept-both'].includes(s)));
  if (kinds.size === 1 && fallback === 'import') {
    const only = [...kinds][0];
    return only === 'replaced' ? 'replace' : only === 'kept-both' ? 'keep-both' : 'import';
  }
  return fallback;
}
