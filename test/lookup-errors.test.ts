import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatMessage, type MessageRef } from '../src/contract/index.js';
import { SkillDockError } from '../src/errors.js';
import { agentsCommand } from '../src/cli/commands/agents.js';
import type { CliIO } from '../src/cli/types.js';
import { getSecurity } from '../src/security/security-service.js';
import { securityEnv, writeSkill, type SecurityEnv } from './support/security.js';
import { terminalArgv } from '../src/workspaces/terminal.js';

// Lookup and path refusals reach the window as a key and its parameters (src/contract/messages-lookup.ts),
// never only as English: each one is raised here through the real engine and its message checked.

let env: SecurityEnv;
beforeEach(() => {
  env = securityEnv();
});
afterEach(async () => {
  await env.cleanup();
});

/** The SkillDockError `run` throws (sync or async). */
async function caught(run: () => unknown): Promise<SkillDockError> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(SkillDockError);
    return err as SkillDockError;
  }
  throw new Error('expected an error');
}

/** The error carries `code` and exactly `msg`, and its English is the key's template filled in. */
function expectKeyed(err: SkillDockError, code: string, msg: MessageRef): void {
  expect({ code: err.code, msg: err.msg }).toEqual({ code, msg });
  expect(err.message).toBe(formatMessage(msg));
  expect(err.message).not.toMatch(/\{\{|^[a-z-]+\.[a-z.-]+$/); // filled in, not the bare key
}

describe('catalog lookups', () => {
  it('an unknown skill name: catalog.no-skill with the name', async () => {
    const err = await caught(() => env.service.api.getSkill({ name: 'nowhere' }));
    expectKeyed(err, 'not-found', { key: 'catalog.no-skill', params: { name: 'nowhere' } });
    expect(err.message).toBe('No skill named "nowhere" in the catalog.');
  });

  it('an unknown agent in the agent view and in a launch: catalog.unknown-agent with the known ids as a list', async () => {
    const known = (await env.service.api.listAgents({})).map((a) => a.id);
    expect(known).toContain('claude');
    const view = await caught(() => env.service.api.agentView({ agent: 'robot' }));
    expectKeyed(view, 'not-found', { key: 'catalog.unknown-agent', params: { agent: 'robot', known } });
    expect(view.message).toContain(`agents: ${known.join(', ')}`);
    await env.service.api.createAssistant({ name: 'Helper', agent: 'claude', rules: 'x', skills: [] });
    const file = path.join(env.home, 'assistants.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/"agent":\s*"claude"/, '"agent": "robot"'));
    const launch = await caught(() => env.service.api.launchAssistant({ assistant: 'Helper' }));
    expectKeyed(launch, 'not-found', { key: 'catalog.unknown-agent', params: { agent: 'robot', known } });
  });
});

describe('paths given to lint and scan', () => {
  it('a missing path: path.missing; a file that is not SKILL.md: path.not-skill', async () => {
    const gone = path.join(env.dir, 'gone');
    expectKeyed(await caught(() => env.service.api.lintPaths({ paths: [gone] })), 'bad-request', {
      key: 'path.missing',
      params: { path: gone },
    });
    expectKeyed(await caught(() => env.service.api.scanPaths({ paths: [gone] })), 'not-found', {
      key: 'path.missing',
      params: { path: gone },
    });
    const readme = path.join(env.dir, 'README.md');
    fs.writeFileSync(readme, '# not a skill\n');
    expectKeyed(await caught(() => env.service.api.lintPaths({ paths: [readme] })), 'bad-request', {
      key: 'path.not-skill',
      params: { path: readme },
    });
  });
});

describe('security skill references', () => {
  it('a folder without SKILL.md: skill-ref.no-skill-file; neither name nor folder: skill-ref.empty', async () => {
    const empty = path.join(env.dir, 'empty');
    fs.mkdirSync(empty);
    expectKeyed(await caught(() => env.service.api.approveSkill({ dir: empty })), 'not-found', {
      key: 'skill-ref.no-skill-file',
      params: { path: empty },
    });
    // The contract's schema asks for one of the two; the service refuses on its own for callers inside the engine.
    const security = getSecurity(env.service.ctx);
    expectKeyed(await caught(() => security.trust({})), 'bad-request', { key: 'skill-ref.empty' });
  });

  it('a changed binary file in the approval diff carries its note as a message', async () => {
    const dir = writeSkill(path.join(env.home, 'library'), 'bins', 'Run `scripts/tool.bin`.\n', {
      'scripts/tool.bin': Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]),
    });
    await env.service.api.approveSkill({ dir });
    fs.writeFileSync(path.join(dir, 'scripts', 'tool.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 9, 9, 9]));
    const diff = await env.service.api.approvalDiff({ dir });
    const change = diff.files.find((f) => f.path === 'scripts/tool.bin');
    expect(change).toMatchObject({ change: 'modified', binary: true, noteMsg: { key: 'security.diff-note.binary' }, note: 'binary file' });
  });
});

describe('agents', () => {
  it('a custom agent made unusable by hand in settings.json: custom-agent.unusable with the path problem nested', async () => {
    const good = { id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'MINE.md' };
    await env.service.api.updateSettings({ ...(await env.service.api.getSettings({})), customAgents: [good] });
    await env.service.api.createAssistant({ name: 'Mine one', agent: 'mine', rules: 'x', skills: [] });
    const file = path.join(env.home, 'settings.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('.mine/skills', '/abs/skills'));
    const err = await caught(() => env.service.api.launchAssistant({ assistant: 'Mine one' }));
    expectKeyed(err, 'bad-request', {
      key: 'custom-agent.unusable',
      params: {
        agent: 'mine',
        problem: {
          key: 'custom-agent.path',
          params: { field: 'skillsDir', value: '/abs/skills', problem: { key: 'workspace-path.absolute' } },
        },
      },
    });
  });

  it('`skilldock agents remove`: a built-in agent, an unknown one with and without custom agents', async () => {
    const io = { service: () => env.service, out: () => {}, err: () => {}, color: false } as unknown as CliIO;
    const remove = (id: string) => caught(() => agentsCommand.run(['remove', id], io));
    expectKeyed(await remove('claude'), 'refused', { key: 'custom-agent.builtin-not-removable', params: { agent: 'claude' } });
    expectKeyed(await remove('ghost'), 'not-found', { key: 'custom-agent.not-found-none', params: { agent: 'ghost' } });
    const mine = { id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'MINE.md' };
    await env.service.api.updateSettings({ ...(await env.service.api.getSettings({})), customAgents: [mine] });
    expectKeyed(await remove('ghost'), 'not-found', { key: 'custom-agent.not-found', params: { agent: 'ghost', known: ['mine'] } });
  });

  it("a launch into one of SkillDock's temporary workspaces: launch.workspace-temporary with the path", async () => {
    await env.service.api.createAssistant({ name: 'Helper', agent: 'claude', rules: 'x', skills: [] });
    const inside = path.join(env.home, 'workspaces', 'old-one');
    fs.mkdirSync(inside, { recursive: true });
    const err = await caught(() => env.service.api.launchAssistant({ assistant: 'Helper', workspace: inside }));
    expectKeyed(err, 'bad-request', { key: 'launch.workspace-temporary', params: { path: inside } });
  });

  it('no terminal program on PATH: launch.no-terminal names the programs tried', async () => {
    const err = await caught(() => terminalArgv(null, '/tmp/x.sh', env.dir, 'linux', { DISPLAY: ':0', PATH: env.dir }));
    expectKeyed(err, 'unsupported', {
      key: 'launch.no-terminal',
      params: { programs: ['x-terminal-emulator', 'gnome-terminal', 'konsole', 'xfce4-terminal', 'xterm'] },
    });
  });
});
