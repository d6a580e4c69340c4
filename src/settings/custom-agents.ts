import type { CustomAgent } from '../contract/settings.js';
import { CUSTOM_AGENT_ID, pathsOverlap, skillsDirProblem } from '../contract/custom-agent-rules.js';
import { workspacePathProblem } from '../agents/workspace-path.js';
import { SkillDockError } from '../errors.js';

// Rules a custom agent must meet before it is saved. The contract's schema checks shapes; these
// check meaning: the launcher joins `skillsDir` and `contextFile` onto a workspace and writes there,
// so each must name a place inside it on every OS, and an id must pick out exactly one agent.

export type CustomAgentField = 'id' | 'name' | 'command' | 'skillsDir' | 'contextFile';

function refuse(agent: string, field: CustomAgentField, message: string, code: 'bad-request' | 'conflict' = 'bad-request'): never {
  throw new SkillDockError(code, `Custom agent "${agent}": ${message}`, { agent, field });
}

const same = (a: CustomAgent, b: CustomAgent) =>
  a.id === b.id && a.name === b.name && a.command === b.command && a.skillsDir === b.skillsDir && a.contextFile === b.contextFile;

/**
 * Check the entries of a `customAgents` list that are new or changed against `stored` (the list on
 * disk) and return the list with their surrounding whitespace trimmed. An entry sent back exactly as
 * stored passes untouched: a hand-edited settings.json must not block saving the theme or removing
 * another agent. Throws a SkillDockError naming the agent and the field (`details: { agent, field }`).
 */
export function validateCustomAgents(
  list: CustomAgent[],
  shippedIds: readonly string[],
  stored: readonly CustomAgent[] = [],
): CustomAgent[] {
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
    const n = count(
      checked.map((c) => c.agent),
      a.id,
    );
    if (n > 1 && n > count(stored, a.id)) refuse(a.id, 'id', `id "${a.id}" is already used by another custom agent`, 'conflict');
  }
  for (const { agent: a, fresh } of checked) {
    if (!fresh) continue;
    const who = a.id || '(no id)';
    if (!CUSTOM_AGENT_ID.test(a.id)) {
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
    const reserved = skillsDirProblem(a.skillsDir);
    if (reserved) {
      refuse(
        a.id,
        'skillsDir',
        reserved.code === 'git-dir'
          ? `skillsDir "${a.skillsDir}" is inside .git, whose hooks run code; choose a folder of its own`
          : `skillsDir "${a.skillsDir}" is ${reserved.folder}, where an agent keeps its own settings; choose a folder of its own`,
      );
    }
    if (pathsOverlap(a.skillsDir, a.contextFile)) {
      refuse(
        a.id,
        'contextFile',
        `contextFile "${a.contextFile}" and skillsDir "${a.skillsDir}" must not be the same path or one inside the other`,
      );
    }
  }
  return checked.map((c) => c.agent);
}
