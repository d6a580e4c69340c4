import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadRegistry, allAgents, expandHome } from './registry.js';

const resources = path.resolve(__dirname, '../../resources');

describe('agent registry', () => {
  it('loads the shipped registry with the six launchable agents', () => {
    const reg = loadRegistry(resources);
    expect(reg.agents.map((a) => a.id)).toEqual(['claude', 'gemini', 'codex', 'opencode', 'qwen', 'generic']);
    const byId = Object.fromEntries(reg.agents.map((a) => [a.id, a]));
    expect(byId.claude.nativeSkillsDir).toBe('.claude/skills');
    expect(byId.gemini.trustEnv).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(byId.codex.symlinkedSkillFile).toBe('ignored');
    expect(byId.qwen.contextFile).toBe('QWEN.md');
  });

  it('adds custom agents without letting them replace shipped ones', () => {
    const all = allAgents(resources, [
      { id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'MINE.md' },
      { id: 'claude', name: 'Fake', command: 'x', skillsDir: '.x', contextFile: 'X.md' },
    ]);
    expect(all.find((a) => a.id === 'mine')?.nativeSkillsDir).toBe('.mine/skills');
    expect(all.filter((a) => a.id === 'claude')).toHaveLength(1);
    expect(all.find((a) => a.id === 'claude')?.name).toBe('Claude Code');
  });

  it('expands ~ against the given home only', () => {
    expect(expandHome('~/.claude/skills', '/h')).toBe(path.join('/h', '.claude/skills'));
    expect(expandHome('/etc/codex/skills', '/h')).toBe('/etc/codex/skills');
  });
});
