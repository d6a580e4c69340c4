import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, type World } from '../../test/support/library.js';
import { makeRepo, startGitDaemon, type Served } from '../../test/support/git-servers.js';
import { ALPHA, BETA } from '../../test/support/reference-lock.js';
import { cacheRoot } from './pins.js';

// The real reference `skills` CLI (npm `skills`, pinned) and SkillDock on one project lock file
// (issue 26 item 5): SkillDock's `install` restores what `skills add` locked, SkillDock writes the
// same bytes `skills add` writes for the same skills, and `skills experimental_install` restores
// from SkillDock's lock. The skills come from a git daemon on 127.0.0.1. `skills` needs Node 22,
// which npm ships as a binary package (node-<platform>-<arch>); both go into the agents' cache.

const SKILLS_VERSION = '1.7.4';
const NODE_VERSION = '22.23.3';
const dir = path.join(cacheRoot(), `skills-cli@${SKILLS_VERSION}`);
const nodePkg = `node-${process.platform}-${process.arch}`;
const nodeBin = path.join(dir, 'node_modules', nodePkg, 'bin', 'node');
const skillsJs = path.join(dir, 'node_modules', 'skills', 'bin', 'cli.mjs');

function installReference(): void {
  if (fs.existsSync(nodeBin) && fs.existsSync(skillsJs)) return;
  fs.mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(
    npm,
    ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', `skills@${SKILLS_VERSION}`, `${nodePkg}@${NODE_VERSION}`],
    { encoding: 'utf8', timeout: 10 * 60_000 },
  );
  if (r.status !== 0) throw new Error(`npm install skills@${SKILLS_VERSION} failed: ${(r.stderr || r.stdout).trim().slice(-800)}`);
}

let w: World;
let daemon: Served;
let url: string;

/** Run the reference CLI in `cwd` with a scratch HOME, offline but for the loopback git daemon. */
function skills(cwd: string, ...args: string[]): Promise<{ code: number; out: string }> {
  const env = { ...process.env, HOME: path.join(w.root, 'ref-home'), DISABLE_TELEMETRY: '1', DO_NOT_TRACK: '1', CI: '1' };
  fs.mkdirSync(env.HOME, { recursive: true });
  return new Promise((resolve, reject) => {
    const c = spawn(nodeBin, [skillsJs, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let out = '';
    c.stdout.on('data', (b: Buffer) => (out += b.toString()));
    c.stderr.on('data', (b: Buffer) => (out += b.toString()));
    c.on('error', reject);
    c.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

function folder(name: string): string {
  const p = path.join(w.root, name);
  fs.mkdirSync(p, { recursive: true });
  return p;
}

beforeAll(async () => {
  installReference();
  w = makeWorld();
  makeRepo(path.join(w.root, 'git'), 'repo', {
    'skills/alpha/SKILL.md': ALPHA,
    'skills/alpha/scripts/run.sh': 'echo hi\n',
    'skills/beta/SKILL.md': BETA,
  });
  daemon = await startGitDaemon(path.join(w.root, 'git', 'served'));
  url = `${daemon.base}/repo.git`;
}, 15 * 60_000);

afterAll(async () => {
  await daemon?.stop();
  await w?.done();
});

describe('skills-lock.json between the reference skills CLI and SkillDock', () => {
  it('SkillDock installs from the lock skills add wrote, and writes the same bytes for the same skills', async () => {
    const theirs = folder('theirs');
    const added = await skills(theirs, 'add', url, '-a', 'claude-code', '-a', 'codex', '-s', '*', '-y');
    expect(added.code, added.out).toBe(0);
    const lock = fs.readFileSync(path.join(theirs, 'skills-lock.json'), 'utf8');

    const clone = folder('clone');
    fs.writeFileSync(path.join(clone, 'skills-lock.json'), lock);
    const api = w.service.api;
    await api.installProject({ project: clone }).catch(() => undefined); // adds both; alpha's script waits for approval
    await api.approveSkill({ name: 'alpha' });
    const out = await api.installProject({ project: clone });
    expect(out.applied).toBe(true);
    for (const rel of ['alpha/SKILL.md', 'alpha/scripts/run.sh', 'beta/SKILL.md']) {
      expect(fs.readFileSync(path.join(clone, '.agents/skills', rel), 'utf8')).toBe(
        fs.readFileSync(path.join(theirs, '.agents/skills', rel), 'utf8'),
      );
    }
    expect(fs.readFileSync(path.join(clone, 'skills-lock.json'), 'utf8')).toBe(lock);

    const ours = folder('ours');
    await api.applyProjectDeploy({ project: ours, skills: ['alpha', 'beta'], agents: ['claude', 'codex'] });
    expect(fs.readFileSync(path.join(ours, 'skills-lock.json'), 'utf8')).toBe(lock);
  }, 180_000);

  it('skills experimental_install restores from the lock SkillDock wrote', async () => {
    const ours = folder('ours2');
    await w.service.api.applyProjectDeploy({ project: ours, skills: ['beta'], agents: ['claude'] });
    const fresh = folder('fresh');
    fs.copyFileSync(path.join(ours, 'skills-lock.json'), path.join(fresh, 'skills-lock.json'));
    const r = await skills(fresh, 'experimental_install');
    expect(r.code, r.out).toBe(0);
    expect(fs.readFileSync(path.join(fresh, '.agents/skills/beta/SKILL.md'), 'utf8')).toBe(BETA);
  }, 180_000);
});
