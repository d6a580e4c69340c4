import { describe, expect, it } from 'vitest';
import { allAgents, type AgentDef } from '../agents/registry.js';
import { resourcesDir } from '../../test/support/library.js';
import { chooseFolders } from './project.js';
import { chooseTargets } from './targets.js';

// One folder choice for the user's folders and for projects (targets.ts): a project's folders are
// chosen by the same rule, with each agent's project folders as the folders it reads.

const all = allAgents(resourcesDir);
const pick = (...ids: string[]) => ids.map((id) => all.find((a) => a.id === id)!);

function userRule(chosen: AgentDef[]): string[] {
  const scope = {
    key: 'x',
    libraryDir: '',
    agents: all.map((a) => ({ id: a.id, name: a.name, reads: a.projectDirs, targets: a.projectDirs, sameName: a.sameName })),
  };
  const r = chooseTargets(scope, { s: Object.fromEntries(chosen.map((a) => [a.id, 'copy' as const])) }, { twice: 'allow' });
  return r.placements.map((p) => p.folder).sort();
}

describe('choosing a project folder', () => {
  it('is the user folders rule, for every set of agents of the registry', () => {
    for (let m = 1; m < 1 << all.length; m++) {
      const chosen = all.filter((_, i) => m & (1 << i));
      const folders = chooseFolders(all, chosen).folders.map((f) => f.folder);
      expect([...folders].sort(), chosen.map((a) => a.id).join('+')).toEqual(userRule(chosen));
      // every chosen agent reads one of them
      for (const a of chosen) expect(a.projectDirs.some((d) => folders.includes(d))).toBe(true);
    }
  });

  it('says "twice" only of agents that list a name twice: OpenCode and Copilot CLI keep one, as in user folders', () => {
    const c = chooseFolders(all, pick('claude', 'generic'));
    expect(c.folders.map((f) => f.folder)).toEqual(['.agents/skills', '.claude/skills']);
    // both read both folders, and each keeps one of two same-named skills (measured in user folders)
    expect(c.twice).toEqual([]);
  });

  it('a chosen agent is never left out: when only a folder some agent reads twice fits, it is taken and said', () => {
    const custom = { ...all.find((a) => a.id === 'generic')!, id: 'x', name: 'X', projectDirs: ['.codex/skills'], sameName: null };
    const agents = [...all, custom];
    const c = chooseFolders(agents, [custom, agents.find((a) => a.id === 'generic')!]);
    expect(c.folders.map((f) => f.folder).sort()).toEqual(['.agents/skills', '.codex/skills']);
    expect(c.twice).toEqual(['codex']);
  });
});
