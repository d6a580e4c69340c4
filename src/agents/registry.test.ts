import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { loadRegistry, allAgents, expandHome } from './registry.js';

const resources = path.resolve(__dirname, '../../resources');

describe('agent registry', () => {
  it('loads the shipped registry with the seven launchable agents', () => {
    const reg = loadRegistry(resources);
    expect(reg.agents.map((a) => a.id)).toEqual(['claude', 'gemini', 'codex', 'opencode', 'qwen', 'copilot', 'generic']);
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

describe('launch fields of the registry', () => {
  it('says how each agent takes extra dirs, its first message and its write guard', () => {
    const byId = Object.fromEntries(loadRegistry(resources).agents.map((a) => [a.id, a]));
    // Claude loads `.claude/skills` inside an --add-dir dir (docs/agents.md; e2e/agents/claude.test.ts)
    expect(byId.claude.extraDirFlag).toMatchObject({ flag: '--add-dir', style: 'repeat', loadsSkills: true, skillsDir: '.claude/skills' });
    expect(byId.claude.extraDirFlag?.contextEnv).toEqual({ CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: '1' });
    expect(byId.claude.writeGuard?.matcher.split('|')).toEqual(expect.arrayContaining(['Write', 'Edit']));
    // Gemini does not load skills from --include-directories (e2e/agents/gemini.test.ts)
    expect(byId.gemini.extraDirFlag).toMatchObject({ flag: '--include-directories', style: 'comma', loadsSkills: false });
    expect(byId.codex.extraDirFlag?.loadsSkills).toBeNull();
    for (const id of ['claude', 'gemini', 'codex']) expect(byId[id].initialPrompt).toBe('positional');
    // Gemini's BeforeTool hook in a temporary workspace only (docs/agents.md "Write guard hooks"; e2e/agents/guard.test.ts)
    expect(byId.gemini.writeGuard).toMatchObject({
      kind: 'gemini-beforetool',
      settingsFile: '.gemini/settings.json',
      settingsFlag: null,
      settingsEnv: null,
    });
    // Qwen Code's PreToolUse hook; a user's project gets it from its system-defaults file, named by a variable
    expect(byId.qwen.writeGuard).toMatchObject({
      kind: 'qwen-pretooluse',
      settingsFile: '.qwen/settings.json',
      settingsEnv: 'QWEN_CODE_SYSTEM_DEFAULTS_PATH',
    });
    expect(byId.copilot.writeGuard).toMatchObject({
      kind: 'copilot-pretooluse',
      settingsFile: '.github/hooks/skilldock-guard.json',
      settingsEnv: null,
    });
    // Codex's PreToolUse hook as -c arguments (trusted for the run by a -c hooks.state entry), no file
    expect(byId.codex.writeGuard).toMatchObject({
      kind: 'codex-pretooluse',
      settingsFile: null,
      configFlag: '-c',
      matcher: '^(Bash|apply_patch)$',
    });
    for (const id of ['opencode', 'generic']) expect(byId[id].writeGuard).toBeNull();
  });

  it('gives a custom agent no extra-dir flag, no guard and no first-message argument', () => {
    const mine = allAgents(resources, [
      { id: 'mine', name: 'Mine', command: 'mine --fast', skillsDir: '.mine/skills', contextFile: 'MINE.md' },
    ]).find((a) => a.id === 'mine')!;
    expect(mine).toMatchObject({
      command: 'mine --fast',
      extraDirFlag: null,
      writeGuard: null,
      initialPrompt: null,
      contextFile: 'MINE.md',
    });
  });
});
