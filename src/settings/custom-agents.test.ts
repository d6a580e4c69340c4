import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkillDockService } from '../service.js';
import type { CustomAgent } from '../contract/index.js';
import { loadRegistry } from '../agents/registry.js';
import { resourcesDir } from '../../test/support/library.js';
import { workspacePathProblem } from '../agents/workspace-path.js';

let root: string;
let home: string;
let s: SkillDockService;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-custom-agents-'));
  home = path.join(root, 'home');
  fs.mkdirSync(home);
  s = new SkillDockService({ paths: { home, userHome: root, resourcesDir } });
});
afterEach(async () => {
  await s.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const mine: CustomAgent = { id: 'mine', name: 'My Agent', command: 'mine --chat', skillsDir: '.mine/skills', contextFile: 'MINE.md' };
const onDisk = () => JSON.parse(fs.readFileSync(path.join(home, 'settings.json'), 'utf8')).data.customAgents as CustomAgent[];

/** The error `call` (the IPC and HTTP path) returns for saving this list. */
async function refused(list: CustomAgent[]) {
  const r = await s.call('updateSettings', { customAgents: list });
  if (r.ok) throw new Error(`saved ${JSON.stringify(list)}`);
  return r.error;
}

describe('custom agents in settings', () => {
  it('saves a valid agent trimmed, and the registry lists it as custom', async () => {
    const saved = await s.api.updateSettings({
      customAgents: [{ ...mine, name: '  My Agent ', command: ' mine --chat\t', skillsDir: ' .mine/skills ' }],
    });
    expect(saved.customAgents).toEqual([mine]);
    expect(onDisk()).toEqual([mine]);
    const listed = (await s.api.listAgents({})).find((a) => a.id === 'mine');
    expect(listed).toMatchObject({ name: 'My Agent', evidence: 'custom', nativeSkillsDir: '.mine/skills', contextFile: 'MINE.md' });
  });

  it('refuses a path that leaves the workspace, naming the agent and the field; nothing is written', async () => {
    await s.api.updateSettings({ customAgents: [mine] });
    const cases: Array<[keyof CustomAgent, string, RegExp]> = [
      ['skillsDir', '/etc/skills', /absolute/],
      ['skillsDir', '../outside/skills', /"\.\."/],
      ['skillsDir', '.mine/../../x', /"\.\."/],
      ['skillsDir', '.mine//skills', /empty segments/],
      ['skillsDir', '.mine/skills/', /empty segments/],
      ['skillsDir', './.mine/skills', /"\." segments/],
      ['skillsDir', '..\\..\\x', /not \\/],
      ['skillsDir', '.mine\\skills', /not \\/],
      ['skillsDir', 'C:/skills', /drive/],
      ['skillsDir', 'c:skills', /drive/],
      ['skillsDir', '~/skills', /~/],
      ['skillsDir', 'a/.. /b', /dot or space/],
      ['skillsDir', 'a/.../b', /dot or space/],
      ['contextFile', '/MINE.md', /absolute/],
      ['contextFile', '../MINE.md', /"\.\."/],
      ['contextFile', 'MINE.md:stream', /":"/],
      ['contextFile', 'a\u0000b', /control/],
      ['contextFile', '   ', /is empty/],
      ['contextFile', '.mine/skills/MINE.md', /one inside the other/],
      ['contextFile', '.mine/skills', /same path/],
      // Links placed where git or an agent keeps hooks and settings would change what they run.
      ['skillsDir', '.git/hooks', /inside \.git/],
      ['skillsDir', '.git', /inside \.git/],
      ['skillsDir', '.claude', /is \.claude, where an agent keeps its own settings/],
      ['skillsDir', '.claude/hooks', /is \.claude\/hooks/],
      ['skillsDir', '.gemini', /is \.gemini,/],
    ];
    for (const [field, value, why] of cases) {
      const err = await refused([mine, { ...mine, id: 'other', [field]: value }]);
      expect(err.code, `${field}=${value}`).toBe('bad-request');
      expect(err.message, `${field}=${value}`).toMatch(why);
      expect(err.message).toContain('Custom agent "other"');
      expect(err.message).toContain(field);
      expect(err.details).toEqual({ agent: 'other', field });
    }
    expect(onDisk()).toEqual([mine]);
  });

  it('accepts a skills folder below an agent folder and a context file in a subfolder', async () => {
    const nested: CustomAgent = { ...mine, id: 'nested', skillsDir: '.claude/skills', contextFile: 'docs/AGENT.md' };
    const saved = await s.api.updateSettings({ customAgents: [nested] });
    expect(saved.customAgents).toEqual([nested]);
  });

  it('refuses every shipped agent id (read from the registry) and a duplicate custom id', async () => {
    const shipped = loadRegistry(resourcesDir).agents.map((a) => a.id);
    expect(shipped.length).toBeGreaterThan(0);
    for (const id of shipped) {
      const err = await refused([{ ...mine, id }]);
      expect(err.code).toBe('conflict');
      expect(err.message).toContain(`id "${id}" belongs to a built-in agent`);
      expect(err.details).toEqual({ agent: id, field: 'id' });
    }
    const dup = await refused([mine, { ...mine, name: 'Again' }]);
    expect(dup).toMatchObject({ code: 'conflict', details: { agent: 'mine', field: 'id' } });
    expect(dup.message).toMatch(/already used by another custom agent/);
    expect(fs.existsSync(path.join(home, 'settings.json'))).toBe(false);
  });

  it('refuses a blank command or name, and a bad id with a readable message on the direct API too', async () => {
    await expect(s.api.updateSettings({ customAgents: [{ ...mine, command: '  \t' }] })).rejects.toMatchObject({
      code: 'bad-request',
      message: 'Custom agent "mine": command is empty',
      details: { field: 'command' },
    });
    await expect(s.api.updateSettings({ customAgents: [{ ...mine, name: ' ' }] })).rejects.toMatchObject({ details: { field: 'name' } });
    // The CLI calls the API without the contract's parse: the id rule still speaks plainly.
    await expect(s.api.updateSettings({ customAgents: [{ ...mine, id: 'My Agent' }] })).rejects.toMatchObject({
      code: 'bad-request',
      message: expect.stringMatching(/id "My Agent" must be 1-32 characters of a-z, 0-9 and -/),
    });
  });

  it("refuses every agent's own settings, hooks and config files (from the registry) as a context file or skills dir", async () => {
    const config = loadRegistry(resourcesDir).agents.flatMap((a) => a.configFiles);
    expect(config).toEqual(expect.arrayContaining(['.claude/settings.json', '.gemini/settings.json', '.codex/config.toml']));
    const values = [
      ...config,
      ...config.map((c) => c.toUpperCase()), // case-insensitive file systems
      '.claude/hooks/notes.md',
      '.gemini/hooks/x/AGENT.md',
      '.git/config',
      '.claude/settings.json/AGENT.md',
    ];
    for (const field of ['contextFile', 'skillsDir'] as const) {
      for (const value of values) {
        const err = await refused([{ ...mine, id: 'other', [field]: value }]);
        expect(err.code, `${field}=${value}`).toBe('bad-request');
        expect(err.details, `${field}=${value}`).toEqual({ agent: 'other', field });
        expect(err.msg?.params?.why, `${field}=${value}`).toMatchObject({
          key: expect.stringMatching(/^custom-agent\.(agent-config|git-dir|agent-folder)$/),
        });
      }
    }
    const err = await refused([{ ...mine, contextFile: '.claude/settings.json' }]);
    expect(err.msg?.params?.why).toEqual({
      key: 'custom-agent.agent-config',
      params: { field: 'contextFile', value: '.claude/settings.json', path: '.claude/settings.json' },
    });
    expect(err.message).toContain('.claude/settings.json');
    // A context file that only looks alike is fine.
    const fine = { ...mine, contextFile: '.claude/CLAUDE.md' };
    expect((await s.api.updateSettings({ customAgents: [fine] })).customAgents).toEqual([fine]);
  });

  it('other settings patches leave custom agents alone, and removing one is a plain update', async () => {
    await s.api.updateSettings({ customAgents: [mine, { ...mine, id: 'two', skillsDir: '.two/skills' }] });
    await s.api.updateSettings({ theme: 'dark' });
    expect(onDisk().map((a) => a.id)).toEqual(['mine', 'two']);
    await s.api.updateSettings({ customAgents: [mine] });
    expect((await s.api.listAgents({})).some((a) => a.id === 'two')).toBe(false);
  });
});

describe('custom agents already in settings.json', () => {
  it('an entry sent back unchanged passes, so a hand-edited bad one does not block other saves', async () => {
    const bad: CustomAgent = { id: 'legacy', name: 'Legacy', command: 'legacy', skillsDir: '/abs/skills', contextFile: 'L.md' };
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ version: 1, data: { customAgents: [bad, mine] } }));
    const current = await s.api.getSettings({});
    // The renderer sends the whole settings object when the theme changes.
    expect((await s.api.updateSettings({ ...current, theme: 'dark' })).theme).toBe('dark');
    await s.api.updateSettings({ customAgents: [bad] });
    expect(onDisk()).toEqual([bad]);
    // Changing it is a new entry: checked in full.
    await expect(s.api.updateSettings({ customAgents: [{ ...bad, name: 'Renamed' }] })).rejects.toMatchObject({
      details: { agent: 'legacy', field: 'skillsDir' },
    });
    // Sending a stored entry twice is still a duplicate.
    await expect(s.api.updateSettings({ customAgents: [bad, bad] })).rejects.toMatchObject({ code: 'conflict', details: { field: 'id' } });
    expect(onDisk()).toEqual([bad]);
  });
});

describe("a hand-edited custom agent whose context file is an agent's settings", () => {
  it('is never listed, so no launch finds it', async () => {
    const bad: CustomAgent = {
      id: 'sneaky',
      name: 'Sneaky',
      command: 'sneaky',
      skillsDir: '.sneaky/skills',
      contextFile: '.claude/settings.json',
    };
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ version: 1, data: { customAgents: [bad] } }));
    expect((await s.api.listAgents({})).some((a) => a.id === 'sneaky')).toBe(false);
  });
});

describe('workspacePathProblem', () => {
  it('accepts plain relative paths, dot-folders included', () => {
    for (const ok of ['.mine/skills', 'skills', 'AGENTS.md', '.config/my-agent/skills', 'docs/My Agent.md', 'a.b/c']) {
      expect(workspacePathProblem(ok), ok).toBeNull();
    }
  });
  it('refuses anything that can resolve outside the workspace on some OS', () => {
    for (const bad of [
      '',
      '/',
      '//server/share',
      '\\\\server\\share',
      'C:\\x',
      'D:',
      '..',
      'a/..',
      'a/./b',
      'x/',
      'a\\b',
      '~',
      'a:b',
      'a. ',
      'x'.repeat(201),
    ]) {
      expect(workspacePathProblem(bad), JSON.stringify(bad)).not.toBeNull();
    }
  });
});
