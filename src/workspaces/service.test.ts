import fs from 'node:fs';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createService, type SkillDockService } from '../service.js';
import { ConversationLog } from './conversations.js';
import { cliScript, resources, sandbox, writeSkill, type Sandbox } from '../../test/support/workspaces.js';
import { waitFor } from '../../test/support/wait.js';

// The whole path: catalog -> assistant -> launch through the service, recorded in the conversation log,
// and the real CLI (bin/skilldock.js) answering the policy check and the Claude hook.

let sb: Sandbox;
let svc: SkillDockService;
beforeEach(() => {
  sb = sandbox();
  svc = createService({ paths: { home: sb.home, userHome: sb.userHome, resourcesDir: resources } });
});
afterEach(async () => {
  await svc.close();
  sb.done();
});

function childEnv(): NodeJS.ProcessEnv {
  return { ...process.env, HOME: sb.userHome, SKILLDOCK_HOME: sb.home, SKILLDOCK_USER_HOME: sb.userHome, NO_COLOR: '1' };
}

function cli(args: string[], input?: string) {
  return spawnSync(process.execPath, [cliScript, ...args], { env: childEnv(), encoding: 'utf8', input: input ?? '', cwd: sb.dir });
}

async function codeAssistant(agent = 'claude', name = 'Code Buddy') {
  writeSkill(sb.lib, 'code', {
    version: '1.0.4',
    description: 'Keeps code notes.',
    body: 'Read `~/code/memory.md` first and write new notes back to `~/code/memory.md`.',
  });
  writeSkill(sb.lib, 'runner', { files: { 'scripts/x.sh': '#!/bin/sh\necho ran\n' } });
  writeSkill(sb.lib, 'lonely');
  // runner ships a script: the user approves it, as SkillDock's security asks before attaching.
  await svc.api.approveSkill({ name: 'runner' });
  await svc.api.createAssistant({ name, agent, rules: 'Be brief.', skills: ['code', 'runner'] });
}

describe('launch through the service', () => {
  it('records the conversation with the exact skill snapshot (name and digest)', async () => {
    await codeAssistant();
    const r = await svc.api.launchAssistant({ assistant: 'code buddy' });
    const catalog = await svc.api.listCatalog({});
    const digest = (n: string) => catalog.entries.find((e) => e.name === n && e.provenance.rootKind === 'library')!.digest;
    const conv = new ConversationLog(sb.home).list().find((c) => c.id === r.conversationId)!;
    expect(conv.skills.map((s: { name: string; digest: string }) => [s.name, s.digest])).toEqual([
      ['code', digest('code')],
      ['runner', digest('runner')],
    ]);
    expect(r.problems).toEqual([]);
    expect(fs.existsSync(path.join(r.workspace, '.claude/skills/lonely'))).toBe(false);
    const list = await svc.api.listWorkspaces({});
    expect(list.map((w) => [w.conversationId, w.temporary, w.inUse])).toEqual([[r.conversationId, true, false]]);
  });

  it('a skill whose scripts the script policy denies is linked, reported, and flagged in the context file', async () => {
    await codeAssistant();
    await svc.api.updateSettings({ scriptPolicy: 'never' });
    const r = await svc.api.launchAssistant({ assistant: 'Code Buddy' });
    expect(r.problems.map((p) => [p.skill, p.code])).toEqual([['runner', 'script-blocked']]);
    expect(r.links.find((l) => l.skill === 'runner')?.ok).toBe(true);
    expect(fs.readFileSync(r.contextFile!, 'utf8')).toContain('Do not run any script of skill `runner`');
  });

  it("uses the assistant's default workspace unless told to launch a temporary one", async () => {
    const project = path.join(sb.dir, 'project');
    fs.mkdirSync(project);
    await codeAssistant();
    await svc.api.updateAssistant({ assistant: 'Code Buddy', defaultWorkspace: project });
    const mine = await svc.api.launchAssistant({ assistant: 'Code Buddy' });
    expect(mine).toMatchObject({ workspace: project, temporary: false, mode: 'native' });
    expect(fs.readdirSync(project)).toEqual([]);
    const temp = await svc.api.launchAssistant({ assistant: 'Code Buddy', temporary: true });
    expect(temp.temporary).toBe(true);
    expect(path.dirname(temp.workspace)).toBe(path.join(sb.home, 'workspaces'));
  });

  it('twenty concurrent launches of one assistant get twenty distinct workspaces, all recorded', async () => {
    await codeAssistant();
    const results = await Promise.all(Array.from({ length: 20 }, () => svc.api.launchAssistant({ assistant: 'Code Buddy' })));
    expect(new Set(results.map((r) => r.workspace)).size).toBe(20);
    expect(new Set(results.map((r) => r.conversationId)).size).toBe(20);
    expect((await svc.api.listWorkspaces({})).length).toBe(20);
  });

  it('ten concurrent CLI processes launching one assistant get ten distinct workspaces', async () => {
    await codeAssistant('codex');
    const runs = await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
            const c = spawn(process.execPath, [cliScript, 'launch', 'Code Buddy', '--json'], { env: childEnv() });
            let out = '';
            let err = '';
            c.stdout.on('data', (d) => (out += d));
            c.stderr.on('data', (d) => (err += d));
            c.on('close', (code) => resolve({ code, out, err }));
          }),
      ),
    );
    for (const r of runs) expect(r.code, r.err).toBe(0);
    const ws = runs.map((r) => JSON.parse(r.out).workspace as string);
    expect(new Set(ws).size).toBe(10);
    expect(new ConversationLog(sb.home).list()).toHaveLength(10);
  }, 120_000);
});

describe('write policy through the CLI and the Claude hook', () => {
  it('policy check-write denies ~/code/memory.md with the redirect', async () => {
    await codeAssistant();
    const r = await svc.api.launchAssistant({ assistant: 'Code Buddy' });
    const state = path.join(sb.home, 'skills-state', 'code-1.0.4');
    const denied = cli(['policy', 'check-write', '~/code/memory.md', '--conversation', r.conversationId, '--json']);
    expect(denied.status).toBe(1);
    const d = JSON.parse(denied.stdout);
    expect(d).toMatchObject({
      allowed: false,
      rule: 'legacy-path',
      skill: 'code',
      redirect: path.join(state, 'memory.md'),
      conversationId: r.conversationId,
    });
    const ok = cli(['policy', 'check-write', path.join(state, 'memory.md'), '--conversation', r.conversationId]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('allowed');
  });

  it('the hook command in .claude/settings.json denies with the suggestion, and stays silent when allowed', async () => {
    await codeAssistant();
    const r = await svc.api.launchAssistant({ assistant: 'Code Buddy' });
    expect(r.problems.filter((p) => p.code === 'guard')).toEqual([]);
    const settings = JSON.parse(fs.readFileSync(path.join(r.workspace, '.claude/settings.json'), 'utf8'));
    const command: string = settings.hooks.PreToolUse[0].hooks[0].command;
    /** Run the hook as Claude Code would, for one tool call. */
    const hook = (tool_name: string, tool_input: Record<string, string>) =>
      spawnSync('sh', ['-c', command], {
        cwd: r.workspace,
        encoding: 'utf8',
        // Claude Code's own env: no SkillDock variables; the command carries what it needs.
        env: { PATH: process.env.PATH ?? '', HOME: sb.userHome },
        input: JSON.stringify({ session_id: 's1', hook_event_name: 'PreToolUse', cwd: r.workspace, tool_name, tool_input }),
      });
    const runHook = (filePath: string) => hook('Write', { file_path: filePath, content: 'note\n' });
    const denied = runHook(path.join(sb.userHome, 'code', 'memory.md'));
    expect(denied.status, denied.stderr).toBe(0);
    const out = JSON.parse(denied.stdout);
    expect(out.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain(path.join(sb.home, 'skills-state', 'code-1.0.4', 'memory.md'));
    const allowed = runHook(path.join(r.workspace, 'notes.md'));
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stdout).toBe('');
    const intoSkill = runHook(path.join(r.workspace, '.claude/skills/code/memory.md'));
    expect(JSON.parse(intoSkill.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/read-only/);

    // The same hook on shell commands (the Bash tool): a command that creates or writes the skill's
    // legacy path, or SkillDock's own files, is denied with the suggestion; other commands pass.
    expect(settings.hooks.PreToolUse[0].matcher).toContain('Bash');
    const runBash = (cmd: string) => hook('Bash', { command: cmd });
    for (const cmd of ['mkdir -p ~/code', 'echo remember >> "$HOME/code/memory.md"', `touch ${path.join(sb.home, 'approvals.json')}`]) {
      const out = runBash(cmd);
      expect(out.status, out.stderr).toBe(0);
      expect(JSON.parse(out.stdout).hookSpecificOutput.permissionDecision, cmd).toBe('deny');
    }
    expect(JSON.parse(runBash('mkdir -p ~/code').stdout).hookSpecificOutput.permissionDecisionReason).toContain(
      path.join(sb.home, 'skills-state', 'code-1.0.4'),
    );
    for (const cmd of ['npm test > /tmp/out.txt', 'ls ~/code', 'mkdir -p build && echo ok > build/x', 'cat ~/code/memory.md']) {
      const out = runBash(cmd);
      expect([cmd, out.status, out.stdout]).toEqual([cmd, 0, '']);
    }
  });
});

describe('the Gemini CLI hook (BeforeTool) through the real CLI', () => {
  it("denies the legacy path in Gemini's answer format, for write_file and run_shell_command; silent when allowed", async () => {
    await codeAssistant('gemini', 'Gem Buddy');
    const r = await svc.api.launchAssistant({ assistant: 'Gem Buddy' });
    expect(r.problems.filter((p) => p.code === 'guard')).toEqual([]);
    const settings = JSON.parse(fs.readFileSync(path.join(r.workspace, '.gemini/settings.json'), 'utf8'));
    const command: string = settings.hooks.BeforeTool[0].hooks[0].command;
    /** Run the hook as Gemini CLI 0.61.0 does: its shell, the workspace as cwd, the call on stdin. */
    const hook = (tool_name: string, tool_input: Record<string, string>) =>
      spawnSync('bash', ['-c', command], {
        cwd: r.workspace,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', HOME: sb.userHome, GEMINI_PROJECT_DIR: r.workspace },
        input: JSON.stringify({ session_id: 's1', hook_event_name: 'BeforeTool', cwd: r.workspace, tool_name, tool_input }),
      });
    const redirect = path.join(sb.home, 'skills-state', 'code-1.0.4', 'memory.md');
    const write = hook('write_file', { file_path: path.join(sb.userHome, 'code', 'memory.md'), content: 'note\n' });
    expect(write.status, write.stderr).toBe(0);
    const answer = JSON.parse(write.stdout);
    expect(answer.decision).toBe('deny');
    expect(answer.reason).toContain(`Suggested path: ${redirect}`);
    const shell = hook('run_shell_command', { command: 'mkdir -p ~/code && echo note >> ~/code/memory.md' });
    expect(JSON.parse(shell.stdout)).toMatchObject({ decision: 'deny' });
    expect(JSON.parse(shell.stdout).reason).toContain(path.join(sb.home, 'skills-state', 'code-1.0.4'));
    const intoSkill = hook('replace', {
      file_path: path.join(r.workspace, '.gemini/skills/code/SKILL.md'),
      old_string: 'a',
      new_string: 'b',
    });
    expect(JSON.parse(intoSkill.stdout).reason).toMatch(/read-only/);
    for (const [tool, input] of [
      ['write_file', { file_path: path.join(r.workspace, 'notes.md'), content: 'x' }],
      ['write_file', { file_path: 'relative/notes.md', content: 'x' }],
      ['run_shell_command', { command: 'ls ~/code && npm test > /tmp/out.txt' }],
    ] as const) {
      const out = hook(tool, input);
      expect([tool, input, out.status, out.stdout]).toEqual([tool, input, 0, '']);
    }
  });
});

describe('state resolve through the CLI', () => {
  it('resolves a state URI and refuses traversal', async () => {
    await codeAssistant();
    await svc.api.launchAssistant({ assistant: 'Code Buddy' });
    const ok = cli(['state', 'resolve', 'skill://state/code-1.0.4/memory.md']);
    expect(ok.status).toBe(0);
    expect(ok.stdout.trim()).toBe(path.join(sb.home, 'skills-state', 'code-1.0.4', 'memory.md'));
    const bad = cli(['state', 'resolve', 'skill://state/code-1.0.4/../../../etc/passwd']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/leaves its state dir/);
  });
});

describe('running the agent', () => {
  function fakeAgent(): string {
    const file = path.join(sb.dir, 'fake-agent.sh');
    fs.writeFileSync(file, `#!/bin/sh\necho "cwd=$(pwd)"\necho "args=$*"\necho "pid=$$"\necho "marker=$SKILLDOCK_TEST_MARKER"\n`, {
      mode: 0o755,
    });
    return file;
  }

  it('launch --exec runs the agent in the workspace with the terminal streams, recording its pid', async () => {
    await svc.api.updateSettings({
      customAgents: [{ id: 'fake', name: 'Fake', command: fakeAgent(), skillsDir: '.fake/skills', contextFile: 'FAKE.md' }],
    });
    await codeAssistant('fake', 'Faker');
    const run = spawnSync(process.execPath, [cliScript, 'launch', 'Faker', '--exec'], {
      env: { ...childEnv(), SKILLDOCK_TEST_MARKER: 'inherited' },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const cwd = /cwd=(.*)/.exec(run.stdout)![1]!;
    expect(path.dirname(cwd)).toBe(path.join(sb.home, 'workspaces'));
    expect(run.stdout).toContain('marker=inherited');
    expect(fs.realpathSync(path.join(cwd, '.fake/skills/code'))).toBe(path.join(sb.lib, 'code'));
    const pidFile = path.join(sb.home, 'conversations', path.basename(cwd), 'agent.pid');
    expect(fs.readFileSync(pidFile, 'utf8')).toBe(''); // written at start, cleared at exit
  });

  it('openInTerminal runs the launcher in the configured terminal command', async () => {
    await svc.api.updateSettings({
      customAgents: [{ id: 'fake', name: 'Fake', command: fakeAgent(), skillsDir: '.fake/skills', contextFile: 'FAKE.md' }],
      terminalCommand: `/bin/sh -c {command}>${path.join(sb.dir, 'terminal.out')}`,
    });
    await codeAssistant('fake', 'Faker');
    const r = await svc.api.launchAssistant({ assistant: 'Faker' });
    const t = await svc.api.openInTerminal({ conversationId: r.conversationId });
    expect(t.terminal[0]).toBe('/bin/sh');
    expect(t.script).toBe(path.join(sb.home, 'conversations', r.conversationId, 'launch.sh'));
    const outFile = path.join(sb.dir, 'terminal.out');
    await waitFor(() => fs.existsSync(outFile) && fs.readFileSync(outFile, 'utf8').includes('marker='), {
      intervalMs: 50,
      what: 'the terminal script to write its marker',
    });
    const out = fs.readFileSync(outFile, 'utf8');
    expect(out).toContain(`cwd=${r.workspace}`);
    const pid = /pid=(\d+)/.exec(out)![1];
    expect(fs.readFileSync(path.join(sb.home, 'conversations', r.conversationId, 'agent.pid'), 'utf8').trim()).toBe(pid);
  });
});

describe('launch refusal through the CLI', () => {
  it('exits 1 naming the skill whose scripts changed since approval; --on-changed omit|skip launch anyway', async () => {
    await codeAssistant();
    fs.writeFileSync(path.join(sb.lib, 'runner', 'scripts', 'x.sh'), '#!/bin/sh\necho changed\n');
    const refused = cli(['launch', 'Code Buddy']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('Launch refused: the scripts of "runner" (changed since approval) need approval first');
    expect(refused.stderr).toContain('--on-changed omit');
    expect(refused.stdout).toBe('');
    const omit = cli(['launch', 'Code Buddy', '--on-changed', 'omit', '--json']);
    expect(omit.status, omit.stderr).toBe(0);
    const r = JSON.parse(omit.stdout);
    expect(r.links.map((l: { skill: string }) => l.skill)).toEqual(['code']);
    expect(r.problems.map((p: { code: string }) => p.code)).toEqual(['script-omitted']);
    const skip = cli(['launch', 'Code Buddy', '--on-changed', 'skip', '--json']);
    expect(skip.status, skip.stderr).toBe(0);
    expect(JSON.parse(skip.stdout).problems.map((p: { skill: string; code: string }) => [p.skill, p.code])).toEqual([
      ['runner', 'script-blocked'],
    ]);
    expect(cli(['launch', 'Code Buddy', '--on-changed', 'maybe']).status).toBe(2);
  });
});
