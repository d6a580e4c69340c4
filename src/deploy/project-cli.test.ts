import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourcesDir } from '../../test/support/library.js';
import { git, makeRepo, startGitDaemon, type Served } from '../../test/support/git-servers.js';
import { ALPHA, BETA, referenceLock } from '../../test/support/reference-lock.js';

// The built `skilldock` command, as a person types it: one user places skills in a project and
// commits its lock; a teammate (another SkillDock home) clones the project from a git daemon on
// 127.0.0.1 and runs `skilldock install` in the fresh clone.

const cliScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/skilldock.js');

let root: string;
let daemon: Served;
let skillsUrl: string;

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-project-cli-')));
  makeRepo(path.join(root, 'git'), 'repo', {
    'skills/alpha/SKILL.md': ALPHA,
    'skills/alpha/scripts/run.sh': 'echo hi\n',
    'skills/beta/SKILL.md': BETA,
  });
  daemon = await startGitDaemon(path.join(root, 'git', 'served'));
  skillsUrl = `${daemon.base}/repo.git`;
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

/** Run the CLI as `who` (each has its own SkillDock home and user home) in `cwd`. */
function cli(who: string, cwd: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const home = path.join(root, who);
  fs.mkdirSync(path.join(home, 'user'), { recursive: true });
  const env = {
    ...process.env,
    HOME: path.join(home, 'user'),
    SKILLDOCK_HOME: path.join(home, 'skilldock'),
    SKILLDOCK_USER_HOME: path.join(home, 'user'),
    SKILLDOCK_RESOURCES: resourcesDir,
    NO_COLOR: '1',
  };
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [cliScript, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (b: Buffer) => (out += b.toString()));
    c.stderr.on('data', (b: Buffer) => (err += b.toString()));
    c.on('error', reject);
    c.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

describe('skilldock project and skilldock install', () => {
  it('plan, apply, commit the lock; a teammate installs in a fresh clone served by git daemon', async () => {
    const work = path.join(root, 'git', 'work', 'project');
    makeRepo(path.join(root, 'git'), 'project', { 'README.md': 'a project\n', '.gitignore': '.claude/\n.codex/\n.agents/\n' });
    expect((await cli('me', root, 'add', skillsUrl)).code).toBe(0);
    expect((await cli('me', root, 'approve', 'alpha')).code).toBe(0);

    const plan = await cli('me', work, 'project', '.', '--skill', 'alpha', '--skill', 'beta', '--agent', 'claude', '--agent', 'codex');
    expect(plan.code).toBe(0);
    expect(plan.out).toContain('Would write 10 entries (run again with --apply):');
    expect(plan.out).toContain('link   .codex/skills/alpha -> ../../.claude/skills/alpha');
    expect(plan.out).toContain('create skills-lock.json');
    expect(fs.existsSync(path.join(work, 'skills-lock.json'))).toBe(false);

    const applied = await cli(
      'me',
      work,
      'project',
      '.',
      '--skill',
      'alpha',
      '--skill',
      'beta',
      '--agent',
      'claude',
      '--agent',
      'codex',
      '--apply',
    );
    expect(applied.code).toBe(0);
    expect(fs.readFileSync(path.join(work, 'skills-lock.json'), 'utf8')).toBe(referenceLock(skillsUrl));
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', 'skills');
    git(work, 'push', '-q', 'origin', 'HEAD:refs/heads/main');

    const clone = path.join(root, 'teammate-clone');
    git(root, 'clone', '-q', `${daemon.base}/project.git`, clone);
    expect(fs.readdirSync(clone).sort()).toEqual(['.git', '.gitignore', 'README.md', 'skills-lock.json']);

    // The teammate's SkillDock has never seen these skills: alpha's script waits for approval, the clone is untouched.
    const first = await cli('teammate', clone, 'install');
    expect(first.code).toBe(1);
    expect(first.err).toContain(`Nothing was written in ${clone}:`);
    expect(first.err).toContain('skilldock approve alpha');
    expect(fs.existsSync(path.join(clone, '.agents'))).toBe(false);
    expect((await cli('teammate', clone, 'approve', 'alpha')).code).toBe(0);

    const second = await cli('teammate', clone, 'install');
    expect(second.code).toBe(0);
    expect(second.out).toContain('alpha                    from the library');
    expect(fs.readFileSync(path.join(clone, '.agents/skills/alpha/scripts/run.sh'), 'utf8')).toBe('echo hi\n');
    expect(fs.readFileSync(path.join(clone, '.agents/skills/beta/SKILL.md'), 'utf8')).toBe(BETA);
    expect(git(clone, 'status', '--porcelain')).toBe(''); // the lock was not rewritten

    const third = await cli('teammate', clone, 'install', '--json');
    expect(third.code).toBe(0);
    expect((JSON.parse(third.out) as { skills: Array<{ status: string }> }).skills.map((s) => s.status)).toEqual(['present', 'present']);
  }, 120_000);

  it('refusals: no lock, a project inside the home, a plan with a name taken (exit 1, nothing written)', async () => {
    const empty = path.join(root, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    const none = await cli('me', empty, 'install');
    expect(none.code).toBe(1);
    expect(none.err).toContain('has no skills-lock.json to install from');

    const inHome = path.join(root, 'me', 'skilldock', 'x');
    fs.mkdirSync(inHome, { recursive: true });
    const home = await cli('me', root, 'project', inHome, '--skill', 'beta', '--agent', 'claude', '--apply');
    expect(home.code).toBe(1);
    expect(home.err).toContain("is inside SkillDock's home");
    expect(fs.readdirSync(inHome)).toEqual([]);

    const taken = path.join(root, 'taken');
    fs.mkdirSync(path.join(taken, '.claude/skills/beta'), { recursive: true });
    fs.writeFileSync(path.join(taken, '.claude/skills/beta/SKILL.md'), 'mine\n');
    const r = await cli('me', taken, 'project', '.', '--skill', 'beta', '--agent', 'claude', '--apply');
    expect(r.code).toBe(1);
    expect(r.err).toContain('  - .claude/skills/beta is already there with other content');
    expect(fs.readFileSync(path.join(taken, '.claude/skills/beta/SKILL.md'), 'utf8')).toBe('mine\n');
    expect(fs.existsSync(path.join(taken, 'skills-lock.json'))).toBe(false);
  }, 60_000);
});
