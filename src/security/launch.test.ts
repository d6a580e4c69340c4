import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../contract/index.js';
import { bashGuardCommand, claudeBashHook } from './launch-guard.js';
import { getSecurity } from './security-service.js';
import { securityEnv, writeSkill, type SecurityEnv } from '../../test/support/security.js';

// What a launch may run: refuse a skill whose scripts changed since approval (or launch it with its
// scripts denied, or without it), the context-file note, and Claude Code's PreToolUse Bash check.

let env: SecurityEnv;
let lib: string;
beforeEach(() => {
  env = securityEnv();
  lib = path.join(env.home, 'library');
});
afterEach(async () => {
  await env.cleanup();
});

const SCRIPT = 'import sys\nprint(sys.argv[1:])\n';
function skills() {
  writeSkill(lib, 'tool', '# Tool\n\n```bash\npython scripts/run.py x\n```\n', { 'scripts/run.py': SCRIPT });
  writeSkill(lib, 'prose', '# Prose\n\nBe concise.\n');
}
async function entries(...names: string[]): Promise<CatalogEntry[]> {
  return Promise.all(names.map((name) => env.service.api.getSkill({ name })));
}
function changeScript() {
  fs.writeFileSync(path.join(lib, 'tool', 'scripts', 'run.py'), `${SCRIPT}# one more line\n`);
}

/** Run the hook command the way Claude Code does: a shell, the tool call as JSON on stdin. */
function runHook(command: string, toolCommand: string, cwd = env.dir) {
  const input = JSON.stringify({
    session_id: 's1',
    transcript_path: path.join(env.userHome, '.claude', 'projects', 'x.jsonl'),
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: toolCommand, description: 'run it' },
  });
  return spawnSync('sh', ['-c', command], { input, encoding: 'utf8' });
}

/** The reason of the hook's deny answer (Claude Code's and Qwen Code's JSON on stdout), or null when it allowed the call. */
function denied(r: { status: number | null; stdout: string; stderr: string }): string | null {
  expect(r.status, r.stderr).toBe(0);
  if (!r.stdout) return null;
  const a = JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
  expect(a.hookSpecificOutput.permissionDecision).toBe('deny');
  return a.hookSpecificOutput.permissionDecisionReason;
}

describe('launchDecision', () => {
  it('refuses a skill whose scripts changed since approval (onChanged: refuse)', async () => {
    skills();
    const sec = getSecurity(env.service.ctx);
    await env.service.api.approveSkill({ name: 'tool' });
    changeScript();
    const d = sec.launchDecision(await entries('tool', 'prose'), { onChanged: 'refuse' });
    expect(d.skills.map((s) => [s.name, s.status, s.action])).toEqual([
      ['tool', 'changed', 'refuse'],
      ['prose', 'no-surface', 'link'],
    ]);
    expect(d.refused.map((s) => s.name)).toEqual(['tool']);
    expect(() => sec.assertLaunchable(d)).toThrow(/Launch refused.*"tool" \(changed since approval\)/);
  });

  it('or launches it with its scripts denied (skip), or without it (omit)', async () => {
    skills();
    const sec = getSecurity(env.service.ctx);
    await env.service.api.approveSkill({ name: 'tool' });
    changeScript();
    const skip = sec.launchDecision(await entries('tool'), { onChanged: 'skip' });
    expect(skip.skills[0]).toMatchObject({ action: 'link-no-scripts', scriptsAllowed: false });
    expect(skip.refused).toEqual([]);
    expect(() => sec.assertLaunchable(skip)).not.toThrow();
    expect(skip.contextNote).toContain('`tool`: its scripts changed since the user approved them');
    expect(skip.denied[0].patterns).toContain('skills/tool');
    expect(skip.denied[0].patterns).toContain(path.join(lib, 'tool'));
    expect(skip.denied[0].patterns).toContain('tool/scripts/run.py');
    const omit = sec.launchDecision(await entries('tool'), { onChanged: 'omit' });
    expect(omit.skills[0]).toMatchObject({ action: 'omit', scriptsAllowed: false });
    expect(omit.contextNote).toBe('');
  });

  it('an approved, unchanged skill is linked with its scripts', async () => {
    skills();
    await env.service.api.approveSkill({ name: 'tool' });
    const d = getSecurity(env.service.ctx).launchDecision(await entries('tool'), { onChanged: 'refuse' });
    expect(d.skills[0]).toMatchObject({ status: 'approved', action: 'link', scriptsAllowed: true });
    expect(d.denied).toEqual([]);
    expect(claudeBashHook(d.denied)).toBeNull();
  });

  it('"never" links every skill without scripts; "allowed" runs them without approval', async () => {
    skills();
    const sec = getSecurity(env.service.ctx);
    await env.service.api.updateSettings({ scriptPolicy: 'never' });
    await env.service.api.approveSkill({ name: 'tool' });
    const never = sec.launchDecision(await entries('tool', 'prose'), { onChanged: 'refuse' });
    expect(never.skills.map((s) => s.action)).toEqual(['link-no-scripts', 'link']);
    expect(never.contextNote).toContain('the script policy is "never"');
    await env.service.api.updateSettings({ scriptPolicy: 'allowed' });
    await env.service.api.revokeApproval({ name: 'tool' });
    const allowed = sec.launchDecision(await entries('tool'), { onChanged: 'refuse' });
    expect(allowed.skills[0]).toMatchObject({ status: 'unapproved', action: 'link', scriptsAllowed: true });
  });
});

describe('Claude Code PreToolUse Bash check', () => {
  it("denies (its JSON decision, exit 0: the model reads the reason, not the hook's script) a command naming a denied skill's scripts, lets others through", async () => {
    skills();
    const sec = getSecurity(env.service.ctx);
    const d = sec.launchDecision(await entries('tool', 'prose'), { onChanged: 'skip' });
    const hook = sec.claudeBashHook(d)!;
    expect(hook.matcher).toBe('Bash');
    expect(hook.hooks[0].type).toBe('command');
    const cmd = hook.hooks[0].command;
    for (const call of [
      'python .claude/skills/tool/scripts/run.py x',
      `python3 ${path.join(lib, 'tool', 'scripts', 'run.py')}`,
      'cd .claude/skills/tool && python scripts/run.py',
      `cd ${path.join(lib, 'tool')}; ./scripts/run.py`,
      'cp .claude/skills/tool/scripts/run.py /tmp/r.py && python /tmp/r.py',
    ]) {
      expect(denied(runHook(cmd, call)), call).toContain('the scripts of skill "tool" are not approved');
    }
    for (const allowed of ['ls -la', 'git status', 'python my_script.py', 'cat .claude/skills/toolbox/notes.md', 'echo "skills/tools"']) {
      expect(denied(runHook(cmd, allowed)), allowed).toBeNull();
    }
  });

  it('quotes hostile characters in patterns safely', () => {
    const cmd = bashGuardCommand([{ name: 'x', reason: 'it\'s "bad" $(touch /tmp/h7-pwn)', patterns: ["/o'dd path/$(x)/x"] }]);
    expect(denied(runHook(cmd, "run /o'dd path/$(x)/x/a.sh"))).toContain("it's");
    expect(fs.existsSync('/tmp/h7-pwn')).toBe(false);
    expect(denied(runHook(cmd, 'ls'))).toBeNull();
  });

  it("Qwen Code's shell hook is the same check on run_shell_command", async () => {
    skills();
    const d = getSecurity(env.service.ctx).launchDecision(await entries('tool'), { onChanged: 'skip' });
    const hook = claudeBashHook(d.denied, 'qwen-pretooluse')!;
    expect(hook.matcher).toBe('^run_shell_command$');
    expect(denied(runHook(hook.hooks[0].command, 'bash .qwen/skills/tool/scripts/run.py'))).toContain(
      'the scripts of skill "tool" are not approved',
    );
  });

  it("Copilot CLI's shell hook judges only bash and write_bash calls and answers with its JSON decision", async () => {
    skills();
    const d = getSecurity(env.service.ctx).launchDecision(await entries('tool', 'prose'), { onChanged: 'skip' });
    const cmd = claudeBashHook(d.denied, 'copilot-pretooluse')!.hooks[0].command;
    // Copilot CLI 1.0.102's stdin: toolArgs an object, every tool (its hooks have no matcher)
    const call = (toolName: string, toolArgs: Record<string, unknown>) =>
      spawnSync('sh', ['-c', cmd], {
        input: JSON.stringify({ sessionId: 's', timestamp: 1, cwd: env.dir, toolName, toolArgs }),
        encoding: 'utf8',
      });
    for (const [tool, args] of [
      ['bash', { command: 'python .github/skills/tool/scripts/run.py x', description: 'run' }],
      ['write_bash', { shellId: '1', input: 'python .github/skills/tool/scripts/run.py x\n' }],
    ] as const) {
      const r = call(tool, args);
      expect(r.status, tool).toBe(0);
      const answer = JSON.parse(r.stdout);
      expect(answer.permissionDecision).toBe('deny');
      expect(answer.permissionDecisionReason).toContain('the scripts of skill "tool" are not approved');
    }
    // reading the skill's files stays allowed; other commands too
    for (const [tool, args] of [
      ['view', { path: '.github/skills/tool/scripts/run.py' }],
      ['bash', { command: 'git status', description: 'status' }],
    ] as const) {
      const r = call(tool, args);
      expect(r.status, tool).toBe(0);
      expect(r.stdout, tool).toBe('');
    }
  });
});

describe('end to end through the launch (H4) and attach (H3b) seams', () => {
  it('attach refuses an unapproved skill under "ask" and accepts it once approved', async () => {
    skills();
    const api = env.service.api;
    const a = await api.createAssistant({ name: 'Helper', agent: 'claude' });
    const refused = await env.service.call('attachSkills', { assistant: a.id, skills: ['tool'] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(await env.service.call('attachSkills', { assistant: a.id, skills: ['prose'] })).toMatchObject({ ok: true });
    await api.approveSkill({ name: 'tool' });
    expect(await env.service.call('attachSkills', { assistant: a.id, skills: ['tool'] })).toMatchObject({ ok: true });
  });

  // Issue 23 item 10: `assistant attach A x y` refused the whole list when one skill needed approval.
  it('attach of a list attaches the trusted skills and names the one waiting for approval', async () => {
    skills();
    const api = env.service.api;
    const a = await api.createAssistant({ name: 'Mixed', agent: 'claude' });
    const result = await api.attachSkills({ assistant: a.id, skills: ['prose', 'tool'] });
    expect(result.skills.map((s) => s.name)).toEqual(['prose']);
    expect(result.waiting).toEqual([
      { name: 'tool', status: 'unapproved', msg: { key: 'security.attach-ask', params: { skill: 'tool' } } },
    ]);
  });

  it('an approved, unchanged skill gets no Bash check', async () => {
    skills();
    const api = env.service.api;
    await api.approveSkill({ name: 'tool' });
    const a = await api.createAssistant({ name: 'Fine', agent: 'claude', skills: ['tool'] });
    const result = await api.launchAssistant({ assistant: a.id });
    try {
      expect(result.problems.filter((p) => p.code === 'script-blocked')).toEqual([]);
      const settings = JSON.parse(fs.readFileSync(path.join(result.workspace, '.claude', 'settings.json'), 'utf8'));
      expect(settings.hooks.PreToolUse.some((g: { matcher: string }) => g.matcher === 'Bash')).toBe(false);
    } finally {
      fs.rmSync(result.workspace, { recursive: true, force: true });
    }
  });

  it('a launch after the script changed places the skill without its scripts and tells the agent not to run them', async () => {
    skills();
    const api = env.service.api;
    await api.approveSkill({ name: 'tool' });
    const a = await api.createAssistant({ name: 'Helper', agent: 'claude', skills: ['tool', 'prose'] });
    changeScript();
    // the user chose to launch it with its scripts denied (the default refuses: src/workspaces/scripts-launch.test.ts)
    const result = await api.launchAssistant({ assistant: a.id, onScriptsChanged: 'skip' });
    try {
      expect(result.links.map((l) => l.skill).sort()).toEqual(['prose', 'tool']);
      expect(result.problems.find((p) => p.skill === 'tool')?.code).toBe('script-blocked');
      const context = fs.readFileSync(result.contextFile!, 'utf8');
      expect(context).toMatch(/tool/);
      expect(context).toContain('changed since the user approved them');
      // Claude Code: the workspace's settings hold the write guard and our Bash check
      const settings = JSON.parse(fs.readFileSync(path.join(result.workspace, '.claude', 'settings.json'), 'utf8'));
      const bashGroup = settings.hooks.PreToolUse.find((g: { matcher: string }) => g.matcher === 'Bash');
      expect(bashGroup).toBeTruthy();
      const link = result.links.find((l) => l.skill === 'tool')!.path;
      expect(fs.existsSync(path.join(link, 'scripts', 'run.py'))).toBe(false);
      const blocked = runHook(bashGroup.hooks[0].command, `python3 ${path.join(link, 'scripts', 'run.py')} x`, result.workspace);
      expect(denied(blocked)).toContain('the scripts of skill "tool" are not approved');
      expect(denied(runHook(bashGroup.hooks[0].command, 'ls -la', result.workspace))).toBeNull();
    } finally {
      fs.rmSync(result.workspace, { recursive: true, force: true });
    }
  });
});
