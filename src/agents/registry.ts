import fs from 'node:fs';
import path from 'node:path';
import type { AgentDef, Registry } from './registry-schema.js';
import { schemaNamed, validated } from '../store/lazy-schema.js';
import type { CustomAgent, MessageRef } from '../contract/index.js';
import { workspacePathMessage } from './workspace-path.js';
import { agentConfigProblem } from '../contract/custom-agent-rules.js';

// The agent registry is data (resources/agents.json): what each agent CLI reads, its loader quirks
// and how to launch it. Code asks the registry; it never hard-codes an agent's behaviour.

export type { AgentDef, Registry } from './registry-schema.js';

const cache = new Map<string, Registry>();

/** Load and validate `resources/agents.json`. A broken registry is a packaging bug: fail loudly. */
export function loadRegistry(resourcesDir: string): Registry {
  const file = path.join(resourcesDir, 'agents.json');
  const hit = cache.get(file);
  if (hit) return hit;
  const raw = fs.readFileSync(file, 'utf8');
  const registry = validated(
    'agent-registry',
    raw,
    ['agent-registry'],
    () => {
      const parsed = schemaNamed<Registry>('agent-registry')!.safeParse(JSON.parse(raw));
      if (!parsed.success) throw new Error(`Invalid agent registry ${file}: ${parsed.error.message}`);
      return parsed.data;
    },
    () => true,
  );
  cache.set(file, registry);
  return registry;
}

/** A user's custom agent from settings, as a registry entry (reads only its own skills dir). */
export function customAgentDef(a: CustomAgent): AgentDef {
  return {
    id: a.id,
    name: a.name,
    command: a.command,
    npmPackage: null,
    testedVersion: null,
    evidence: 'custom',
    nativeSkillsDir: a.skillsDir,
    contextFile: a.contextFile,
    configFiles: [],
    projectDirs: [a.skillsDir],
    userDirs: [],
    walksUp: null,
    depth: { kind: 'children' },
    dotDirs: null,
    symlinkedSkillDir: 'followed',
    symlinkedSkillFile: null,
    identifier: 'name',
    sameName: null,
    quirks: {},
    catalogBudget: null,
    env: {},
    trustEnv: {},
    extraDirFlag: null,
    initialPrompt: null,
    writeGuard: null,
    sandbox: null,
  };
}

/** Shipped agents followed by the user's custom ones (a custom id never replaces a shipped one). */
/**
 * Why a custom agent from settings cannot be used, or null. Saving checks this too, but
 * settings.json can be edited by hand (or by anything running as the user): a launch joins these
 * paths onto a workspace and writes there, so an entry that would leave it is never used.
 */
export function customAgentProblem(c: CustomAgent, configFiles: readonly string[] = []): MessageRef | null {
  for (const field of ['skillsDir', 'contextFile'] as const) {
    const problem = workspacePathMessage(c[field]);
    if (problem) return { key: 'custom-agent.path', params: { field, value: c[field], problem } };
    const config = agentConfigProblem(c[field], configFiles);
    if (config) return { key: 'custom-agent.agent-config', params: { field, value: c[field], path: config.path } };
  }
  return null;
}

/** Every shipped agent's own settings, hooks and config files (the registry's `configFiles`). */
export function agentConfigFiles(agents: readonly AgentDef[]): string[] {
  return [...new Set(agents.flatMap((a) => a.configFiles ?? []))];
}

export function allAgents(resourcesDir: string, custom: CustomAgent[] = []): AgentDef[] {
  const shipped = loadRegistry(resourcesDir).agents;
  const ids = new Set(shipped.map((a) => a.id));
  const config = agentConfigFiles(shipped);
  return [...shipped, ...custom.filter((c) => !ids.has(c.id) && customAgentProblem(c, config) === null).map(customAgentDef)];
}

export function findAgent(resourcesDir: string, id: string, custom: CustomAgent[] = []): AgentDef | undefined {
  return allAgents(resourcesDir, custom).find((a) => a.id === id);
}

/**
 * The frontmatter `field: value` makes an agent leave the skill out of its model's listing, by its
 * listing record's `hiddenBy` rule (e.g. `disable-model-invocation: true`).
 */
export function hiddenFromListing(rule: NonNullable<AgentDef['listing']>['hiddenBy'], field: string, value: unknown): boolean {
  if (!rule || rule.field !== field) return false;
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
  if (text === null) return false;
  return rule.values.includes(rule.fold ? text.trim().toLowerCase() : text);
}

/** Expand `~/` in a registry dir against the given user home. */
export function expandHome(dir: string, userHome: string): string {
  return dir === '~' ? userHome : dir.startsWith('~/') ? path.join(userHome, dir.slice(2)) : dir;
}
