import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleCli, makeEnv, writeSkill, type TestEnv } from '../../test/support/assistants.js';

// The `skilldock assistant` command as a real child process on a temp home (the CLI bundled fresh
// from the sources, as `npm run build:engine` does).

let env: TestEnv;
let cliFile: string;

beforeAll(async () => {
  env = makeEnv();
  cliFile = await bundleCli(env.dir);
  writeSkill(path.join(env.home, 'library'), 'pdf');
  writeSkill(path.join(env.home, 'library'), 'docx');
  writeSkill(path.join(env.resourcesDir, 'skills'), 'guide');
});
afterAll(async () => {
  await env.cleanup();
});

function cli(args: string[], input?: string): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliFile, 'assistant', ...args], {
    cwd: env.dir,
    env: env.childEnv(),
    encoding: 'utf8',
    input,
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json(args: string[]): unknown {
  const r = cli([...args, '--json']);
  expect(r, r.stderr).toMatchObject({ code: 0 });
  return JSON.parse(r.stdout);
}

describe('skilldock assistant', () => {
  it('create, attach, show, edit, detach, duplicate, delete with --json', () => {
    fs.writeFileSync(path.join(env.dir, 'rules.md'), '# Reviewer\n\nBe precise.\n');
    const created = json(['create', '--name', 'Reviewer', '--agent', 'claude', '--rules-file', 'rules.md']) as {
      id: string;
      rules: string;
    };
    expect(created).toMatchObject({ name: 'Reviewer', agent: 'claude', builtin: false, skills: [] });
    expect(created.rules).toBe('# Reviewer\n\nBe precise.\n');

    const attached = json(['attach', 'reviewer', 'pdf', 'docx', 'guide']) as {
      skills: Array<{ name: string; rootId: string; missing: boolean }>;
    };
    expect(attached.skills.map((s) => [s.name, s.rootId, s.missing])).toEqual([
      ['pdf', 'library', false],
      ['docx', 'library', false],
      ['guide', 'builtin', false],
    ]);

    fs.rmSync(path.join(env.home, 'library', 'docx'), { recursive: true });
    const shown = json(['show', created.id]) as { missingCount: number; skills: Array<{ name: string; missing: boolean }> };
    expect(shown.missingCount).toBe(1);
    expect(shown.skills.find((s) => s.name === 'docx')?.missing).toBe(true);
    const human = cli(['show', 'Reviewer']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/docx\s+missing/);
    expect(human.stdout).toContain('Be precise.');

    const edited = json(['edit', 'Reviewer', '--name', 'Critic', '--agent', 'gemini', '--rules', 'short']);
    expect(edited).toMatchObject({ id: created.id, name: 'Critic', agent: 'gemini', rules: 'short' });
    const fromStdin = cli(['edit', 'critic', '--rules-file', '-', '--json'], 'from stdin\n');
    expect(fromStdin.code).toBe(0);
    expect(JSON.parse(fromStdin.stdout).rules).toBe('from stdin\n');

    const detached = json(['detach', 'Critic', 'docx']) as { skills: Array<{ name: string }> };
    expect(detached.skills.map((s) => s.name)).toEqual(['pdf', 'guide']);

    const copy = json(['duplicate', 'Critic', '--name', 'Critic 2']) as { id: string; name: string };
    expect(copy.name).toBe('Critic 2');
    const list = json(['list']) as Array<{ name: string; builtin: boolean }>;
    expect(list.filter((a) => !a.builtin).map((a) => a.name)).toEqual(['Critic', 'Critic 2']);
    expect(list.filter((a) => a.builtin).length).toBeGreaterThanOrEqual(3);

    expect(json(['delete', 'Critic 2'])).toEqual({ id: copy.id, name: 'Critic 2' });
    const human2 = cli(['list']);
    expect(human2.code).toBe(0);
    expect(human2.stdout).toMatch(/Code Reviewer.*starter, read-only/);
    expect(human2.stdout).not.toContain('Critic 2');
  }, 120_000);

  it('exit 1 with a clear message for an unknown assistant, agent or skill, and for a starter', () => {
    json(['create', '--name', 'Solo', '--agent', 'codex']);
    const cases: Array<[string[], RegExp]> = [
      [['show', 'Nobody'], /Unknown assistant "Nobody"/],
      [['create', '--name', 'X', '--agent', 'robot'], /Unknown agent "robot"; known agents: claude, gemini/],
      [['attach', 'Solo', 'pdf', 'no-such-skill'], /unknown skill: no-such-skill/],
      [['create', '--name', 'solo', '--agent', 'claude'], /already .*"Solo"/],
      [['edit', 'Code Reviewer', '--rules', 'x'], /built-in starter.*duplicate/],
      [['delete', 'Researcher'], /built-in starter/],
      [['detach', 'Solo', 'pdf'], /not attached/],
    ];
    for (const [args, message] of cases) {
      const r = cli(args);
      expect({ args, code: r.code }).toEqual({ args, code: 1 });
      expect(r.stderr).toMatch(message);
    }
    const solo = json(['show', 'solo']) as { skills: unknown[] };
    expect(solo.skills).toEqual([]);
  }, 120_000);

  // Issue 23 item 10: one skill waiting for approval refused the whole list.
  it('attach of a list attaches the others and names the skill that waits for approval, exit 1', () => {
    const runner = writeSkill(path.join(env.home, 'library'), 'runner', 'Runs a tool. Use when asked.', 'Run scripts/run.sh.\n');
    fs.mkdirSync(path.join(runner, 'scripts'));
    fs.writeFileSync(path.join(runner, 'scripts', 'run.sh'), 'echo run\n', { mode: 0o755 });
    json(['create', '--name', 'Mixed', '--agent', 'claude']);
    const r = cli(['attach', 'Mixed', 'runner', 'pdf']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('Attached to "Mixed": pdf (library)');
    expect(r.stderr).toMatch(/Not attached: "runner" can run code .*\(skilldock approve runner\)\./);
    expect((json(['show', 'Mixed']) as { skills: Array<{ name: string }> }).skills.map((s) => s.name)).toEqual(['pdf']);
  }, 120_000);

  it('exit 2 for bad usage', () => {
    const cases: string[][] = [
      [],
      ['frobnicate'],
      ['create', '--agent', 'claude'],
      ['create', '--name', 'Y'],
      ['create', '--name', '', '--agent', 'claude'],
      ['create', '--name', 'Y', '--agent', 'claude', '--rules', 'a', '--rules-file', 'b'],
      ['edit', 'Solo'],
      ['attach', 'Solo'],
      ['show'],
      ['list', '--bogus'],
      ['edit', 'Solo', '--rules-file', 'does-not-exist.md'],
    ];
    for (const args of cases) {
      const r = cli(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toMatch(/Usage: skilldock assistant|skilldock assistant:/);
    }
  }, 120_000);
});
