import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createService, type SkillDockService } from '../../src/service.js';
import type { LaunchResult } from '../../src/contract/index.js';
import { expect } from 'vitest';
import { resources, sandbox, treeHash, writeSkill, type Sandbox } from '../../test/support/workspaces.js';

// One assistant with three skills (one runs `scripts/x.sh` by a relative path) plus a library skill
// it does not attach, launched through the real service, for a real agent CLI to judge.

export const ATTACHED = [
  { name: 'xrunner', description: 'Runs the x helper script when asked to run x.' },
  { name: 'notes-keeper', description: 'Keeps running notes about the project between sessions.' },
  { name: 'style-guide', description: 'Applies the house style to prose and code comments.' },
];
export const UNATTACHED = { name: 'lonely-skill', description: 'Never attached to the assistant.' };

export interface AgentFixture {
  sb: Sandbox;
  svc: SkillDockService;
  /** Scratch HOME for the agent CLI: no login, no user skills. */
  scratchHome: string;
  launch(workspace?: string): Promise<LaunchResult>;
  done(): Promise<void>;
}

export async function agentFixture(agent: string): Promise<AgentFixture> {
  const sb = sandbox();
  writeSkill(sb.lib, 'xrunner', {
    description: ATTACHED[0]!.description,
    body: 'Run `scripts/x.sh` (relative to this skill folder) and report what it prints.',
    files: { 'scripts/x.sh': '#!/bin/sh\necho "x-ok from $(basename "$(pwd)")"\n' },
  });
  writeSkill(sb.lib, 'notes-keeper', {
    description: ATTACHED[1]!.description,
    version: '2.0.1',
    body: 'Append notes to `~/notes/log.md`.',
  });
  writeSkill(sb.lib, 'style-guide', { description: ATTACHED[2]!.description });
  writeSkill(sb.lib, UNATTACHED.name, { description: UNATTACHED.description });
  const scratchHome = path.join(sb.dir, 'scratch-home');
  fs.mkdirSync(scratchHome);
  const svc = createService({ paths: { home: sb.home, userHome: sb.userHome, resourcesDir: resources } });
  // xrunner ships a script the agent must be able to run: the user approves it first.
  await svc.api.approveSkill({ name: 'xrunner' });
  await svc.api.createAssistant({ name: `E2E ${agent}`, agent, rules: 'Answer briefly.', skills: ATTACHED.map((s) => s.name) });
  return {
    sb,
    svc,
    scratchHome,
    launch: (workspace) => svc.api.launchAssistant({ assistant: `E2E ${agent}`, ...(workspace ? { workspace } : {}) }),
    async done() {
      await svc.close();
      sb.done();
    },
  };
}

/** Run a pinned CLI offline with a scratch HOME; returns stdout, failing with stderr on a bad exit. */
export function runAgent(bin: string, args: string[], opts: { cwd: string; home: string; env?: Record<string, string> }): string {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: opts.home,
    XDG_CONFIG_HOME: path.join(opts.home, '.config'),
    XDG_DATA_HOME: path.join(opts.home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(opts.home, '.cache'),
    NO_COLOR: '1',
    TERM: 'dumb',
    ...opts.env,
  };
  const r = spawnSync(bin, args, { cwd: opts.cwd, env, encoding: 'utf8', timeout: 150_000, input: '' });
  if (r.error) throw new Error(`${bin} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** `sh scripts/x.sh` run from the skill's folder as the agent would resolve it. */
export function runScriptFrom(skillDir: string): string {
  const r = spawnSync('sh', ['scripts/x.sh'], { cwd: skillDir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`scripts/x.sh from ${skillDir} failed: ${r.stderr}`);
  return r.stdout.trim();
}

/**
 * Launch into a user's own project (index mode): nothing is written into it, the first message
 * names each attached skill's real folder, and a script runs from there. The project and result
 * are returned for the agent's own check that it sees none of the skills in the project.
 */
export async function launchIntoProject(fx: AgentFixture): Promise<{ project: string; r: LaunchResult }> {
  const project = path.join(fx.sb.dir, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'README.md'), '# p\n');
  const before = treeHash(project);
  const r = await fx.launch(project);
  expect(treeHash(project)).toBe(before);
  expect(r.mode).toBe('index');
  for (const s of ATTACHED) {
    expect(r.firstMessage).toContain(`- **${s.name}**: ${s.description} [Skill Directory: ${path.join(fx.sb.lib, s.name)}]`);
  }
  const dir = /\*\*xrunner\*\*: .* \[Skill Directory: (.*)\]/.exec(r.firstMessage!)![1]!;
  expect(runScriptFrom(dir)).toBe('x-ok from xrunner');
  return { project, r };
}
