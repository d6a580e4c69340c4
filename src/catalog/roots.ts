import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';
import type { Root, RootKind } from '../contract/index.js';
import { expandHome, type AgentDef } from '../agents/registry.js';

// Skill roots in precedence order (lower number wins a name clash): built-in, library, the agents'
// user roots, the project roots of one project dir, extra roots (settings, then per query).
// The user and project lists are derived from the agent registry, so a new agent is a data change.

export interface RootInputs {
  home: string;
  userHome: string;
  resourcesDir: string;
  agents: AgentDef[];
  project?: string;
  extraRoots?: string[];
  queryRoots?: string[];
}

interface DirUse {
  dir: string;
  agents: string[];
  first: number;
}

/**
 * The dirs a tier of agents reads, most widely read first (`.agents/skills` reaches most agents),
 * then in registry order. Stable for a given registry.
 */
export function agentDirs(agents: AgentDef[], pick: (a: AgentDef) => string[]): DirUse[] {
  const uses = new Map<string, DirUse>();
  let n = 0;
  for (const agent of agents) {
    for (const dir of pick(agent)) {
      const use = uses.get(dir) ?? { dir, agents: [], first: n++ };
      if (!use.agents.includes(agent.id)) use.agents.push(agent.id);
      uses.set(dir, use);
    }
  }
  return [...uses.values()].sort((a, b) => b.agents.length - a.agents.length || a.first - b.first);
}

function exists(dir: string): boolean {
  try {
    // Most agents' user roots do not exist: no exception built for each of them on every lookup.
    return fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** Root id of a registry dir: `user:.claude/skills` (from `~/.claude/skills`), `project:.agents/skills`. */
export function registryRootId(kind: 'user' | 'project', dir: string): string {
  return `${kind}:${kind === 'user' && dir.startsWith('~/') ? dir.slice(2) : dir}`;
}

export function computeRoots(input: RootInputs): Root[] {
  const out: Root[] = [];
  const byPath = new Map<string, Root>();
  const add = (id: string, kind: RootKind, dir: string, agents: string[]) => {
    const abs = path.resolve(dir);
    const seen = byPath.get(abs);
    if (seen) {
      // Same folder reached twice (e.g. the project is the home dir): the stronger root keeps it.
      for (const a of agents) if (!seen.agents.includes(a)) seen.agents.push(a);
      return;
    }
    const root: Root = { id, kind, path: abs, agents: [...agents], precedence: out.length, exists: exists(abs) };
    byPath.set(abs, root);
    out.push(root);
  };

  add('builtin', 'builtin', path.join(input.resourcesDir, 'skills'), []);
  add('library', 'library', path.join(input.home, 'library'), []);
  for (const use of agentDirs(input.agents, (a) => a.userDirs)) {
    add(registryRootId('user', use.dir), 'user', expandHome(use.dir, input.userHome), use.agents);
  }
  if (input.project) {
    const project = path.resolve(input.project);
    for (const use of agentDirs(input.agents, (a) => a.projectDirs)) {
      if (path.isAbsolute(use.dir)) continue; // a project dir is always relative to the project
      add(registryRootId('project', use.dir), 'project', path.join(project, use.dir), use.agents);
    }
  }
  const extras = [...(input.extraRoots ?? []), ...(input.queryRoots ?? [])];
  for (const dir of extras) {
    // Keyed by path, not position: assistants keep root ids, and settings can be reordered.
    const abs = path.resolve(expandHome(dir, input.userHome));
    add(`extra:${abs}`, 'extra', abs, []);
  }
  return out;
}

/** The root a path lives under (the deepest one), and the name of its top-level child there. */
export function locate(roots: Root[], target: string): { root: Root; child: string | null } | null {
  const abs = path.resolve(target);
  let best: Root | null = null;
  for (const root of roots) {
    if (isInside(abs, root.path)) {
      if (!best || root.path.length > best.path.length) best = root;
    }
  }
  if (!best) return null;
  if (abs === best.path) return { root: best, child: null };
  return { root: best, child: abs.slice(best.path.length + 1).split(path.sep)[0] };
}
