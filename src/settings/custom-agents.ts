import type { CustomAgent } from '../contract/settings.js';
import type { MessageKey, MessageParams, MessageRef } from '../contract/index.js';
import { CUSTOM_AGENT_ID, agentConfigProblem, pathsOverlap, skillsDirProblem } from '../contract/custom-agent-rules.js';
import { workspacePathMessage } from '../agents/workspace-path.js';
import { fail } from '../errors.js';

// Rules a custom agent must meet before it is saved. The contract's schema checks shapes; these
// check meaning: the launcher joins `skillsDir` and `contextFile` onto a workspace and writes there,
// so each must name a place inside it on every OS, and an id must pick out exactly one agent.

export type CustomAgentField = 'id' | 'name' | 'command' | 'skillsDir' | 'contextFile';

function refuse(
  agent: string | MessageRef,
  field: CustomAgentField,
  key: MessageKey,
  params?: MessageParams,
  code: 'bad-request' | 'conflict' = 'bad-request',
): never {
  const why: MessageRef = params ? { key, params } : { key };
  throw fail(code, 'custom-agent.refused', { agent, why }, { agent: typeof agent === 'string' ? agent : '', field });
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
  configFiles: readonly string[] = [],
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
    if (n > 1 && n > count(stored, a.id)) refuse(a.id, 'id', 'custom-agent.id-taken', { id: a.id }, 'conflict');
  }
  for (const { agent: a, fresh } of checked) {
    if (!fresh) continue;
    const who = a.id || { key: 'custom-agent.no-id' };
    if (!CUSTOM_AGENT_ID.test(a.id)) refuse(who, 'id', 'custom-agent.id-format', { id: a.id });
    if (shipped.has(a.id)) refuse(a.id, 'id', 'custom-agent.id-builtin', { id: a.id, builtin: [...shipped] }, 'conflict');
    if (!a.name) refuse(a.id, 'name', 'custom-agent.name-empty');
    if (!a.command) refuse(a.id, 'command', 'custom-agent.command-empty');
    for (const field of ['skillsDir', 'contextFile'] as const) {
      const problem = workspacePathMessage(a[field]);
      if (problem) refuse(a.id, field, 'custom-agent.path', { field, value: a[field], problem });
    }
    const reserved = skillsDirProblem(a.skillsDir);
    if (reserved) {
      if (reserved.code === 'git-dir') refuse(a.id, 'skillsDir', 'custom-agent.git-dir', { value: a.skillsDir });
      else refuse(a.id, 'skillsDir', 'custom-agent.agent-folder', { value: a.skillsDir, folder: reserved.folder });
    }
    for (const field of ['contextFile', 'skillsDir'] as const) {
      const config = agentConfigProblem(a[field], configFiles);
      if (config) refuse(a.id, field, 'custom-agent.agent-config', { field, value: a[field], path: config.path });
    }
    if (pathsOverlap(a.skillsDir, a.contextFile)) {
      refuse(a.id, 'contextFile', 'custom-agent.overlap', { contextFile: a.contextFile, skillsDir: a.skillsDir });
    }
  }
  return checked.map((c) => c.agent);
}
