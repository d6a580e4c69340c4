import type { CustomAgent } from '../contract/settings.js';
import { SkillDockError } from '../errors.js';

// Rules a custom agent must meet before it is saved. The contract's schema checks shapes; these
// check meaning: the launcher joins `skillsDir` and `contextFile` onto a workspace and writes there,
// so each must name a place inside it on every OS, and an id must pick out exactly one agent.

export type CustomAgentField = 'id' | 'name' | 'command' | 'skillsDir' | 'contextFile';

const ID = /^[a-z0-9][a-z0-9-]{0,31}$/;
const MAX_PATH = 200;

/** Why `value` is not a relative path inside the workspace, or null when it is one. */
export function workspacePathProblem(value: string): string | null {
  if (!value) return 'is empty';
  if (value.length > MAX_PATH) return `is longer than ${MAX_PATH} characters`;
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'contains a control character';
  // On Windows `\` separates segments, so `..\..` climbs out even where `/` is checked.
  if (value.includes('\\')) return 'must use / between folders, not \\';
  if (value.startsWith('/')) return 'must be relative to the workspace, not an absolute path';
  if (/^[A-Za-z]:/.test(value)) return 'must not start with a drive like C:';
  // `:` after a name is an NTFS alternate data stream; nothing legitimate needs it here.
  if (value.includes(':')) return 'must not contain ":"';
  if (value.startsWith('~')) return 'must not start with ~ (it is relative to the workspace, not the home folder)';
  for (const seg of value.split('/')) {
    if (seg === '') return 'must not have empty segments (a leading, trailing or doubled /)';
    if (seg === '..') return 'must not contain ".." (it has to stay inside the workspace)';
    if (seg === '.') return 'must not contain "." segments (write it without ./)';
    // Windows drops trailing dots and spaces from a name, turning `.. ` or `...` into `..`.
    if (/[. ]$/.test(seg)) return `must not have a segment ending in a dot or space ("${seg}")`;
  }
  return null;
}

function refuse(agent: string, field: CustomAgentField, message: string, code: 'bad-request' | 'conflict' = 'bad-request'): never {
  throw new SkillDockError(code, `Custom agent "${agent}": ${message}`, { agent, field });
}

const within = (inner: string, outer: string) => inner === outer || inner.startsWith(`${outer}/`);

const same = (a: CustomAgent, b: CustomAgent) =>
  a.id === b.id && a.name === b.name && a.command === b.command && a.skillsDir === b.skillsDir && a.contextFile === b.contextFile;

/**
 * Check the entries of a `customAgents` list that are new or changed against `stored` (the list on
 * disk) and return the list with their surrounding whitespace trimmed. An entry sent back exactly as
 * stored passes untouched: a hand-edited settings.json must not block saving the theme or removing
 * another agent. Throws a SkillDockError naming the agent and the field (`details: { agent, field }`).
 */
export function validateCustomAgents(list: CustomAgent[], shippedIds: readonly string[], stored: readonly CustomAgent[] = []): CustomAgent[] {
  const shipped = new Set(shippedIds);
  const checked = list.map((raw) => {
    if (stored.some((s) => same(s, raw))) return { agent: raw, fresh: false };
    const agent: CustomAgent = {
      id: raw.id.trim(),
      name: raw.name.trim(),
      command: raw.command.trim(),
      skillsDir: raw.skillsDir.trim(),
      contextFile: raw.contextFile.trim(),
    };
    return { agent, fresh: true };
  });
  // Ids stay unique, unless settings.json already held that duplicate (and still would, no worse).
  const count = (l: readonly CustomAgent[], id: string) => l.filter((a) => a.id === id).length;
  for (const { agent: a } of checked) {
    const n = count(checked.map((c) => c.agent), a.id);
    if (n > 1 && n > count(stored, a.id)) refuse(a.id, 'id', `id "${a.id}" is already used by another custom agent`, 'conflict');
  }
  for (const { agent: a, fresh } of checked) {
    if (!fresh) continue;
    const who = a.id || '(no id)';
    if (!ID.test(a.id)) {
      refuse(who, 'id', `id "${a.id}" must be 1-32 characters of a-z, 0-9 and -, starting with a letter or digit`);
    }
    if (shipped.has(a.id)) {
      refuse(a.id, 'id', `id "${a.id}" belongs to a built-in agent; choose another (built-in: ${[...shipped].join(', ')})`, 'conflict');
    }
    if (!a.name) refuse(a.id, 'name', 'name is empty');
    if (!a.command) refuse(a.id, 'command', 'command is empty');
    for (const field of ['skillsDir', 'contextFile'] as const) {
      const problem = workspacePathProblem(a[field]);
      if (problem) refuse(a.id, field, `${field} "${a[field]}" ${problem}`);
    }
    if (within(a.contextFile, a.skillsDir) || within(a.skillsDir, a.contextFile)) {
      refuse(a.id, 'contextFile', `contextFile "${a.contextFile}" and skillsDir "${a.skillsDir}" must not be the same path or one inside the other`);
    }
  }
  return checked.map((c) => c.agent);
}
