import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { launchWorkspace } from '../workspaces/launch.js';
import { agent, cliScript, launchSkills, sandbox, writeSkill, type Sandbox } from '../../test/support/workspaces.js';
import { checkWrite, legacyMappings, type PolicyScope } from './write-policy.js';
import { systemFolderOf } from './system-folders.js';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.done());

async function scopeForCodeSkill(): Promise<{ scope: PolicyScope; workspace: string; state: string; link: string }> {
  writeSkill(sb.lib, 'code', {
    version: '1.0.4',
    body: 'Read `~/code/memory.md` first, and write what you learned back to `~/code/memory.md`.',
  });
  const skills = await launchSkills([path.join(sb.lib, 'code')]);
  const { conversation, result } = launchWorkspace({
    home: sb.home,
    userHome: sb.userHome,
    agent: agent('claude'),
    assistant: { id: 'a', name: 'A', rules: '' },
    skills,
    cli: { node: process.execPath, script: cliScript, env: {} },
  });
  const scope: PolicyScope = {
    workspace: conversation.workspace,
    stateDirs: conversation.stateDirs,
    skillDirs: conversation.skills.map((s) => ({ name: s.name, dir: s.dir })),
    legacy: conversation.legacy,
    guardFiles: conversation.guardFiles,
    // a temp dir of its own, so the user home (also under the OS temp dir here) is not "temp"
    tempDirs: [path.join(sb.dir, 'tmp')],
    userHome: sb.userHome,
  };
  return { scope, workspace: result.workspace, state: result.stateDirs[0]!.dir, link: result.links[0]!.path };
}

describe('write policy', () => {
  it('denies ~/code/memory.md with the redirect into the skill state dir', async () => {
    const { scope, state } = await scopeForCodeSkill();
    const d = checkWrite(scope, '~/code/memory.md');
    expect(d.allowed).toBe(false);
    expect(d.rule).toBe('legacy-path');
    expect(d.skill).toBe('code');
    expect(d.redirect).toBe(path.join(state, 'memory.md'));
    expect(state).toBe(path.join(sb.home, 'skills-state', 'code-1.0.4'));
    expect(d.reason).toContain('~/code/');
    // the absolute form gets the same answer, and so does a deeper file
    expect(checkWrite(scope, path.join(sb.userHome, 'code/memory.md')).redirect).toBe(path.join(state, 'memory.md'));
    expect(checkWrite(scope, '~/code/sub/x.json').redirect).toBe(path.join(state, 'sub/x.json'));
  });

  it('allows the workspace, the state dir and the temp dir; denies elsewhere', async () => {
    const { scope, workspace, state } = await scopeForCodeSkill();
    expect(checkWrite(scope, 'notes.md', workspace)).toMatchObject({
      allowed: true,
      rule: 'workspace',
      path: path.join(workspace, 'notes.md'),
    });
    expect(checkWrite(scope, path.join(state, 'memory.md'))).toMatchObject({ allowed: true, rule: 'state-dir', skill: 'code' });
    expect(checkWrite(scope, path.join(sb.dir, 'tmp', 'scratch.txt'))).toMatchObject({ allowed: true, rule: 'temp' });
    expect(checkWrite(scope, '~/.bashrc')).toMatchObject({ allowed: false, rule: 'protected' });
    expect(checkWrite(scope, path.join(workspace, '..', 'other', 'x'))).toMatchObject({ allowed: false, rule: 'outside' });
    // A name that begins with two dots is a file in the workspace, not its parent.
    expect(checkWrite(scope, path.join(workspace, '..notes.md'))).toMatchObject({ allowed: true, rule: 'workspace' });
    expect(checkWrite(scope, '..notes.md', workspace)).toMatchObject({ allowed: true, rule: 'workspace' });
  });

  // `path.relative(ws, file).startsWith('..')` called this file outside. /var/tmp, because the temp
  // dir would allow it under another rule.
  it.skipIf(process.platform === 'win32' || !fs.existsSync('/var/tmp'))(
    '`policy check-write <cwd>/..notes.md` from the command line: inside the workspace',
    () => {
      const ws = fs.realpathSync(fs.mkdtempSync('/var/tmp/sd-dots-'));
      try {
        const env = {
          PATH: process.env.PATH ?? '',
          HOME: sb.userHome,
          SKILLDOCK_HOME: sb.home,
          SKILLDOCK_USER_HOME: sb.userHome,
          NO_COLOR: '1',
        };
        const run = (file: string) =>
          spawnSync(process.execPath, [cliScript, 'policy', 'check-write', file, '--json'], {
            cwd: ws,
            env,
            encoding: 'utf8',
            timeout: 60_000,
          });
        const dots = run(path.join(ws, '..notes.md'));
        expect(dots.status, dots.stderr).toBe(0);
        expect(JSON.parse(dots.stdout)).toMatchObject({ allowed: true, rule: 'workspace', path: path.join(ws, '..notes.md') });
        const parent = run(path.join(ws, '..', 'notes.md'));
        expect(parent.status).toBe(1);
        expect(JSON.parse(parent.stdout)).toMatchObject({ allowed: false, rule: 'outside' });
      } finally {
        fs.rmSync(ws, { recursive: true, force: true });
      }
    },
  );

  it('denies writes into a skill folder through its link, and to the guard file', async () => {
    const { scope, link, state, workspace } = await scopeForCodeSkill();
    const d = checkWrite(scope, path.join(link, 'memory.md'));
    expect(d).toMatchObject({ allowed: false, rule: 'skill-folder', skill: 'code', redirect: path.join(state, 'memory.md') });
    expect(fs.existsSync(path.join(sb.lib, 'code', 'memory.md'))).toBe(false);
    expect(checkWrite(scope, '.claude/settings.json', workspace)).toMatchObject({ allowed: false, rule: 'guard-file' });
  });

  it('maps a legacy file straight in home to that file only', () => {
    const m = legacyMappings('tool', [{ path: '~/.toolrc', line: 3, redirect: '' }], '/s/tool', '/h');
    expect(m).toEqual([{ skill: 'tool', from: '~/.toolrc', fromPath: path.join('/h', '.toolrc'), to: path.join('/s/tool', '.toolrc') }]);
  });
});

describe('protected paths, whatever the workspace', () => {
  function launch(workspace?: string) {
    return launchWorkspace({
      home: sb.home,
      userHome: sb.userHome,
      agent: agent('claude'),
      assistant: { id: 'a', name: 'A', rules: '' },
      skills: [],
      cli: { node: process.execPath, script: cliScript, env: {} },
      ...(workspace ? { workspace } : {}),
    });
  }
  const scopeOf = (workspace: string): PolicyScope => ({
    workspace,
    stateDirs: [{ skill: 'x', id: 'x', dir: path.join(sb.home, 'skills-state', 'x'), uri: 'skill://state/x/' }],
    skillDirs: [],
    legacy: [],
    guardFiles: [],
    tempDirs: [],
    userHome: sb.userHome,
    skilldockHome: sb.home,
  });

  it('refuses to launch with the disk root, the user home or SkillDock home (or a folder holding it) as the workspace', () => {
    expect(() => launch('/')).toThrow(/root of the disk/);
    expect(() => launch(sb.userHome)).toThrow(/your home folder/);
    expect(() => launch(sb.home)).toThrow(/SkillDock's own files/);
    expect(() => launch(sb.dir)).toThrow(/SkillDock's own files/); // it contains SkillDock's home
    expect(() => launch(path.join(sb.home, 'library'))).toThrow(/SkillDock's own files/);
    const project = path.join(sb.userHome, 'project');
    fs.mkdirSync(project);
    expect(launch(project).result.workspace).toBe(project);
  });

  it('refuses a system folder as the workspace, by its code, and never allows writing inside a system tree', () => {
    for (const dir of ['/etc', '/usr', '/var', '/bin', '/usr/share', '/var/lib', '/proc', '/dev', '/boot', '/sys'].filter((d) =>
      fs.existsSync(d),
    )) {
      let err: unknown;
      try {
        launch(dir);
      } catch (e) {
        err = e;
      }
      expect((err as { msg?: { key: string } } | undefined)?.msg?.key, dir).toBe('launch.workspace-system');
      expect(String(err), dir).toMatch(/system folder/);
    }
    // Below a parent of system and user folders, a project may live (`/var/www/site`, `/opt/x`).
    expect(systemFolderOf('/var/www/site')).toBeNull();
    expect(systemFolderOf('/opt/project')).toBeNull();
    expect(systemFolderOf('/home/me/code')).toBeNull();
    expect(systemFolderOf('/etc/nginx')).toBe('/etc');
    expect(systemFolderOf('/lib64')).toBe('/lib64');
    expect(systemFolderOf('/usr/lib/x86_64-linux-gnu')).toBe('/usr/lib');
    expect(systemFolderOf('/library')).toBeNull(); // case matters on POSIX paths
    expect(systemFolderOf('C:\\Windows\\System32')).toBe('C:\\Windows');
    expect(systemFolderOf('c:/program files/App')).toBe('C:\\Program Files');
    expect(systemFolderOf('C:\\Users')).toBe('C:\\Users');
    expect(systemFolderOf('C:\\Users\\me\\code')).toBeNull();
    // A link to /etc is refused by where it leads.
    const link = path.join(sb.userHome, 'looks-fine');
    fs.symlinkSync('/etc', link);
    expect(() => launch(link)).toThrow(/system folder/);
    // The policy holds on its own: a workspace of /etc (refused above) still never allows /etc/passwd.
    for (const p of ['/etc/passwd', '/usr/bin/env', '/bin/sh']) {
      expect(checkWrite(scopeOf('/etc'), p), p).toMatchObject({ allowed: false, rule: 'protected' });
      expect(checkWrite(scopeOf('/'), p), p).toMatchObject({ allowed: false, rule: 'protected' });
    }
  });

  it("never allows SkillDock's own files, agent settings files or private dotfiles, even inside the workspace", () => {
    // a workspace that holds everything (launch refuses it; the policy must hold on its own)
    const s = scopeOf(sb.dir);
    for (const p of [
      path.join(sb.home, 'approvals.json'),
      path.join(sb.home, 'settings.json'),
      path.join(sb.home, 'assistants.json'),
      path.join(sb.userHome, '.ssh', 'authorized_keys'),
      path.join(sb.userHome, '.bashrc'),
      path.join(sb.dir, '.claude', 'settings.json'),
      path.join(sb.dir, '.claude', 'settings.local.json'),
      path.join(sb.dir, '.claude', 'hooks', 'x.sh'),
    ]) {
      expect(checkWrite(s, p), p).toMatchObject({ allowed: false, rule: 'protected' });
    }
    // the skills' state dirs stay writable, and so does the rest of the workspace
    expect(checkWrite(s, path.join(sb.home, 'skills-state', 'x', 'notes.md')).allowed).toBe(true);
    expect(checkWrite(s, path.join(sb.dir, 'notes.md')).allowed).toBe(true);
  });

  it('a temporary workspace inside SkillDock home stays writable', () => {
    const { result } = launch();
    const s = scopeOf(result.workspace);
    expect(checkWrite(s, path.join(result.workspace, 'notes.md'))).toMatchObject({ allowed: true, rule: 'workspace' });
    expect(checkWrite(s, path.join(sb.home, 'approvals.json'))).toMatchObject({ allowed: false, rule: 'protected' });
  });
});
