import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, type CliHarness } from './cli-harness.js';

// `skilldock agents add|remove` as a user runs them: a real `node` child process on a bundle built
// here, with HOME and SKILLDOCK_HOME in temp dirs.

let h: CliHarness;
let base: string;

beforeAll(async () => {
  h = await cliHarness('sd-cli-agents-');
  base = h.base;
}, 60_000);

afterAll(() => h.done());

const run = (...args: string[]) => h.run(args);

const savedAgents = () => {
  const file = path.join(base, 'sdhome', 'settings.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')).data.customAgents as Array<{ id: string }>) : [];
};

const ADD = [
  'agents',
  'add',
  'myagent',
  '--name',
  'My Agent',
  '--command',
  'myagent --chat',
  '--skills-dir',
  '.myagent/skills',
  '--context-file',
  'MYAGENT.md',
];

describe('skilldock agents add / remove', () => {
  it('adds a custom agent that list and show then report as custom', () => {
    const r = run(...ADD);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Added custom agent myagent (My Agent)');
    expect(savedAgents()).toEqual([
      { id: 'myagent', name: 'My Agent', command: 'myagent --chat', skillsDir: '.myagent/skills', contextFile: 'MYAGENT.md' },
    ]);

    const list = run('agents');
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/myagent\s+My Agent \(custom\)/);
    expect(list.stdout).toContain('links into .myagent/skills, context MYAGENT.md');

    const show = run('agents', 'show', 'myagent', '--json');
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({
      id: 'myagent',
      evidence: 'custom',
      command: 'myagent --chat',
      nativeSkillsDir: '.myagent/skills',
    });
  });

  it('refuses a duplicate or a shipped id with exit 1, a bad path or missing option with exit 2', () => {
    const dup = run(...ADD);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('id "myagent" is already used by another custom agent');

    const shipped = run('agents', 'add', 'claude', '--name', 'C', '--command', 'c', '--skills-dir', '.c/skills', '--context-file', 'C.md');
    expect(shipped.code).toBe(1);
    expect(shipped.stderr).toMatch(/id "claude" belongs to a built-in agent; choose another \(built-in: claude, gemini, /);

    const outside = run('agents', 'add', 'esc', '--name', 'E', '--command', 'e', '--skills-dir', '../../etc', '--context-file', 'E.md');
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('skillsDir "../../etc" must not contain ".."');

    const abs = run(
      'agents',
      'add',
      'esc',
      '--name',
      'E',
      '--command',
      'e',
      '--skills-dir',
      '.e/skills',
      '--context-file',
      '/tmp/E.md',
      '--json',
    );
    expect(abs.code).toBe(2);
    expect(abs.stderr).toContain('contextFile "/tmp/E.md" must be relative to the workspace');
    expect(abs.stdout).toBe('');

    const blank = run('agents', 'add', 'esc', '--name', 'E', '--command', '   ', '--skills-dir', '.e/skills', '--context-file', 'E.md');
    expect(blank.code).toBe(2);
    expect(blank.stderr).toContain('command is empty');

    const missing = run('agents', 'add', 'esc', '--name', 'E', '--skills-dir', '.e/skills');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('add needs --command, --context-file');
    expect(missing.stderr).toContain('Usage: skilldock agents');

    expect(run('agents', 'add').code).toBe(2);
    expect(run('agents', 'frob').code).toBe(2);
    expect(run('agents', 'list', '--name', 'x').code).toBe(2);
    expect(savedAgents().map((a) => a.id)).toEqual(['myagent']);
  });

  it('removes only custom agents', () => {
    const builtin = run('agents', 'remove', 'claude');
    expect(builtin.code).toBe(1);
    expect(builtin.stderr).toContain('"claude" is a built-in agent and cannot be removed');

    const unknown = run('agents', 'remove', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No custom agent "nope"; custom agents: myagent');

    const r = run('agents', 'remove', 'myagent', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: 'myagent', name: 'My Agent' });
    expect(savedAgents()).toEqual([]);
    expect(run('agents', 'show', 'myagent').code).toBe(1);
    expect(run('agents', 'remove').code).toBe(2);
  });

  it('documents add and remove in its usage', () => {
    const r = run('agents', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('add <id> --name N --command C --skills-dir D --context-file F');
    expect(r.stdout).toContain('remove <id>');
  });
});

describe('skilldock launch prints a command a person can paste', () => {
  it("Codex's guard arguments (spaces, quotes, TOML) come back word for word through sh", () => {
    expect(run('assistant', 'create', '--name', 'Cx', '--agent', 'codex').code).toBe(0);
    const text = run('launch', 'Cx', '--temporary');
    expect(text.code, text.stderr).toBe(0);
    const line = /^ {2}command: {6}(.*)$/m.exec(text.stdout)?.[1];
    expect(line).toBeDefined();
    const words = spawnSync('sh', ['-c', `for a in ${line}; do printf '%s\\0' "$a"; done`], { encoding: 'utf8' })
      .stdout.split('\0')
      .slice(0, -1);
    expect(words[0]).toBe('codex');
    expect(words).toContain('-c');
    expect(words.find((w) => w.startsWith('hooks.PreToolUse='))).toContain('policy check-write --hook');
    expect(words.find((w) => w.startsWith('hooks.state='))).toMatch(/trusted_hash="sha256:[0-9a-f]{64}"/);
  });
});
