import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, treeHash } from '../../test/support/workspaces.js';
import { agentFixture, type AgentFixture } from './fixture.js';
import { codexArgs, copilotOffline } from './capture.js';
import { scripted as scriptedRun, type Outcome } from './scripted.js';
import {
  codexScript,
  codexToolResult,
  geminiScript,
  geminiToolResult,
  openaiChatScript,
  openaiToolResult,
  type ToolCall,
} from './model-script.js';
import { requireAgent } from './pins.js';
import type { LaunchResult } from '../../src/contract/index.js';
import { FORMS, LIBRARY_FORMS, formsAttempted, formsThatRan, indirectCommand } from './indirect.js';

// The write guard with the real CLIs: the recording model server answers with a tool call that
// writes the legacy path an attached skill mentions (notes-keeper: `~/notes/log.md`), the CLI runs
// SkillDock's hook before the tool, and the hook denies it. The file is not written, and the model's
// next request carries the deny reason with the state-dir path to use instead. Every CLI runs with
// every tool call approved (its own permission prompt would otherwise stop the call first), so
// only the hook stands between the model and the file.

let fx: AgentFixture;
beforeAll(() => {
  // The hook runs this checkout's bundled CLI (bin/skilldock.js -> dist/cli.mjs): build it as it is now.
  execFileSync(process.execPath, ['scripts/build-engine.mjs'], { cwd: repoRoot, stdio: 'inherit' });
});
afterEach(() => fx.done());

const LEGACY_SHELL = 'mkdir -p ~/notes && echo remember >> ~/notes/log.md';

/** Run `bin args` with the scripted model server; HOME is the SkillDock user's home, as for a user. */
const scripted = (...a: Parameters<typeof scriptedRun> extends [unknown, ...infer R] ? R : never) => scriptedRun(fx, ...a);

/** notes-keeper's state dir, where the guard redirects `~/notes/`. */
function stateDir(): string {
  const dir = fs.readdirSync(path.join(fx.sb.home, 'skills-state')).find((d) => d.startsWith('notes-keeper'));
  if (!dir) throw new Error('no state dir for notes-keeper');
  return path.join(fx.sb.home, 'skills-state', dir);
}

/**
 * The script-approval hook: xrunner's approval is withdrawn and the launch goes ahead with its
 * scripts denied (`skip`). The shell command the model asks for runs xrunner's script through the
 * link in the workspace and writes what it prints to a marker file outside it; the marker proves
 * whether the script ran. `control` approves xrunner again and launches anew: the same call runs.
 */
async function unapprovedLaunch(agent: string) {
  await fx.svc.api.revokeApproval({ name: 'xrunner' });
  const r = await fx.svc.api.launchAssistant({ assistant: `E2E ${agent}`, onScriptsChanged: 'skip' });
  expect(r.problems.map((p) => `${p.skill}:${p.code}`)).toContain('xrunner:script-blocked');
  const link = r.links.find((l) => l.skill === 'xrunner')!;
  const marker = path.join(fx.sb.dir, 'x-ran.txt');
  const command = `cd ${path.relative(r.workspace, link.path)} && sh scripts/x.sh > ${marker}`;
  return {
    r,
    marker,
    command,
    async control() {
      await fx.svc.api.approveSkill({ name: 'xrunner' });
      return fx.launch();
    },
  };
}

/** The hook's reason, as the tool result carries it (JSON text: the quotes may come escaped). */
const SCRIPT_DENIED = /the scripts of skill \\?"xrunner\\?" are not approved/;

describe('Gemini CLI 0.61.0 runs the guard (BeforeTool hook)', () => {
  beforeEach(async () => {
    fx = await agentFixture('gemini');
    // An API-key user: gemini reads the auth choice from the user's settings.
    fs.mkdirSync(path.join(fx.sb.userHome, '.gemini'), { recursive: true });
    fs.writeFileSync(
      path.join(fx.sb.userHome, '.gemini', 'settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
    );
  });

  const model = (url: string) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'recorded' });
  const gemini = (bin: string, r: { command: string[]; firstMessage?: string }, call: ToolCall, cwd: string, env: Record<string, string>) =>
    scripted(bin, [...r.command.slice(1), '--approval-mode', 'yolo', '-p', r.firstMessage ?? 'Keep a note.'], geminiScript(call), model, {
      cwd,
      env,
    });

  /** The tool results gemini sent back to the model, in order. */
  const results = (o: Outcome) => o.requests.map(geminiToolResult).filter((t): t is string => t !== null);

  it('temporary workspace: a shell command writing ~/notes/log.md is denied, the model is told the state path; without the hook it is written', async () => {
    const bin = requireAgent('gemini');
    const r = await fx.launch();
    const call = { name: 'run_shell_command', args: { command: LEGACY_SHELL } };
    const denied = await gemini(bin, r, call, r.workspace, r.env);
    const sent = results(denied);
    expect(sent, `gemini sent no tool result:\n${denied.stderr.slice(-3000)}`).toHaveLength(1);
    expect(sent[0]).toContain('Tool execution blocked');
    expect(sent[0]).toContain(`Suggested path: ${stateDir()}${path.sep}`);
    expect(fs.existsSync(path.join(fx.sb.userHome, 'notes'))).toBe(false);

    // The same call with the guard's settings file gone: the hook alone stopped it.
    fs.rmSync(path.join(r.workspace, '.gemini', 'settings.json'));
    const unguarded = await gemini(bin, r, call, r.workspace, r.env);
    expect(results(unguarded)).toHaveLength(1);
    expect(results(unguarded)[0]).not.toContain('Tool execution blocked');
    expect(fs.readFileSync(path.join(fx.sb.userHome, 'notes', 'log.md'), 'utf8')).toBe('remember\n');
  });

  it("temporary workspace: write_file on the guard's own settings file is denied (Gemini itself allows it: it is inside the workspace)", async () => {
    const bin = requireAgent('gemini');
    const r = await fx.launch();
    const settings = path.join(r.workspace, '.gemini', 'settings.json');
    const before = fs.readFileSync(settings, 'utf8');
    const o = await gemini(bin, r, { name: 'write_file', args: { file_path: settings, content: '{}\n' } }, r.workspace, r.env);
    const sent = results(o);
    expect(sent, o.stderr.slice(-3000)).toHaveLength(1);
    expect(sent[0]).toContain('Tool execution blocked');
    expect(fs.readFileSync(settings, 'utf8')).toBe(before);
  });

  it("temporary workspace: an unapproved skill's script is denied and does not run; approved, it runs", async () => {
    const bin = requireAgent('gemini');
    const u = await unapprovedLaunch('gemini');
    const shell = { name: 'run_shell_command', args: { command: u.command } };
    const denied = await gemini(bin, u.r, shell, u.r.workspace, u.r.env);
    expect(results(denied), denied.stderr.slice(-3000)).toHaveLength(1);
    expect(results(denied)[0]).toMatch(SCRIPT_DENIED);
    expect(fs.existsSync(u.marker)).toBe(false);

    const r = await u.control();
    const ran = await gemini(bin, r, shell, r.workspace, r.env);
    expect(results(ran), ran.stderr.slice(-3000)).toHaveLength(1);
    expect(results(ran)[0]).not.toMatch(SCRIPT_DENIED);
    expect(fs.readFileSync(u.marker, 'utf8')).toBe('x-ok from xrunner\n');
  });

  it("an unapproved skill's script: no indirect form finds it in the workspace; the library copy is in reach (not guarded: no sandbox)", async () => {
    const bin = requireAgent('gemini');
    const u = await unapprovedLaunch('gemini');
    // Gemini CLI itself refuses any command with `$(...)` in it: the whole line, so nothing runs.
    const all = { name: 'run_shell_command', args: { command: indirectCommand(fx.sb.lib, '.gemini/skills') } };
    const refused = await gemini(bin, u.r, all, u.r.workspace, u.r.env);
    expect(results(refused), refused.stderr.slice(-3000)).toHaveLength(1);
    expect(results(refused)[0]).toContain('Command injection detected');
    expect(formsAttempted(u.r.workspace)).toEqual([]);
    // The other forms: none finds a script in the workspace; the library copy runs.
    const rest = { name: 'run_shell_command', args: { command: indirectCommand(fx.sb.lib, '.gemini/skills', ['substitution']) } };
    const o = await gemini(bin, u.r, rest, u.r.workspace, u.r.env);
    expect(results(o), o.stderr.slice(-3000)).toHaveLength(1);
    expect(formsAttempted(u.r.workspace), results(o)[0]).toEqual(FORMS.filter((f) => f !== 'substitution'));
    expect(formsThatRan(u.r.workspace)).toEqual(LIBRARY_FORMS.filter((f) => f !== 'substitution'));
  });

  it("user's project gets no hook: Gemini skips a settings file it would load by variable unless root owns it and its folders", async () => {
    const bin = requireAgent('gemini');
    const project = path.join(fx.sb.dir, 'project');
    fs.mkdirSync(project);
    const r = await fx.launch(project);
    expect(Object.keys(r.env)).toEqual(['GEMINI_CLI_TRUST_WORKSPACE']);
    // The one settings file gemini loads from outside the project and the user's ~/.gemini: its
    // system defaults, named by GEMINI_CLI_SYSTEM_DEFAULTS_PATH. Written where SkillDock could write
    // it (its home), with the same hook a temporary workspace gets, gemini skips it.
    const file = path.join(fx.sb.home, 'conversations', r.conversationId, 'gemini-defaults.json');
    const hook = { type: 'command', command: `echo '{"decision":"deny","reason":"guarded"}'`, timeout: 30_000 };
    fs.writeFileSync(file, JSON.stringify({ hooks: { BeforeTool: [{ matcher: '^run_shell_command$', hooks: [hook] }] } }));
    const o = await gemini(bin, r, { name: 'run_shell_command', args: { command: LEGACY_SHELL } }, project, {
      ...r.env,
      GEMINI_CLI_SYSTEM_DEFAULTS_PATH: file,
    });
    expect(o.stderr + o.stdout).toContain(`Skipping system defaults file '${file}'`);
    expect(results(o)[0]).not.toContain('guarded');
    expect(fs.readFileSync(path.join(fx.sb.userHome, 'notes', 'log.md'), 'utf8')).toBe('remember\n');
  });
});

describe('Qwen Code 0.24.4 runs the guard (PreToolUse hook)', () => {
  beforeEach(async () => {
    fx = await agentFixture('qwen');
  });

  const model = (url: string) => ({ OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: 'recorded', OPENAI_MODEL: 'gpt-4o' });
  const qwen = (bin: string, r: { command: string[]; firstMessage?: string }, call: ToolCall, cwd: string, env: Record<string, string>) =>
    scripted(
      bin,
      [...r.command.slice(1), '--approval-mode', 'yolo', '-p', r.firstMessage ?? 'Keep a note.'],
      openaiChatScript(call),
      model,
      {
        cwd,
        env: { QWEN_CODE_SUPPRESS_YOLO_WARNING: '1', ...env },
      },
    );
  const results = (o: Outcome) => o.requests.map(openaiToolResult).filter((t): t is string => t !== null);
  const call = { name: 'run_shell_command', args: { command: LEGACY_SHELL } };

  it('temporary workspace: the shell command writing ~/notes/log.md is denied with the state path; without the hook it is written', async () => {
    const bin = requireAgent('qwen');
    const r = await fx.launch();
    const denied = await qwen(bin, r, call, r.workspace, r.env);
    const sent = results(denied);
    expect(sent, `qwen sent no tool result:\n${denied.stderr.slice(-3000)}`).toHaveLength(1);
    expect(sent[0]).toContain(`Suggested path: ${stateDir()}${path.sep}`);
    expect(fs.existsSync(path.join(fx.sb.userHome, 'notes'))).toBe(false);

    fs.rmSync(path.join(r.workspace, '.qwen', 'settings.json'));
    const unguarded = await qwen(bin, r, call, r.workspace, r.env);
    expect(results(unguarded)).toHaveLength(1);
    expect(results(unguarded)[0]).not.toContain('Suggested path');
    expect(fs.readFileSync(path.join(fx.sb.userHome, 'notes', 'log.md'), 'utf8')).toBe('remember\n');
  });

  it("user's project: the hook comes from the launch's system-defaults file outside it; the project is untouched", async () => {
    const bin = requireAgent('qwen');
    const project = path.join(fx.sb.dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'README.md'), '# mine\n');
    const before = treeHash(project);
    const r = await fx.launch(project);
    expect(r.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH).toBe(path.join(fx.sb.home, 'conversations', r.conversationId, 'guard-settings.json'));
    const o = await qwen(bin, r, call, project, r.env);
    const sent = results(o);
    expect(sent, o.stderr.slice(-3000)).toHaveLength(1);
    expect(sent[0]).toContain(`Suggested path: ${stateDir()}${path.sep}`);
    expect(fs.existsSync(path.join(fx.sb.userHome, 'notes'))).toBe(false);
    expect(treeHash(project)).toBe(before);
  });
  it("an unapproved skill's script: the shell call is denied and the script does not run; approved, it runs", async () => {
    const bin = requireAgent('qwen');
    const u = await unapprovedLaunch('qwen');
    const shell = (command: string) => ({ name: 'run_shell_command', args: { command } });
    const denied = await qwen(bin, u.r, shell(u.command), u.r.workspace, u.r.env);
    const sent = results(denied);
    expect(sent, `qwen sent no tool result:\n${denied.stderr.slice(-3000)}`).toHaveLength(1);
    expect(sent[0]).toMatch(SCRIPT_DENIED);
    expect(fs.existsSync(u.marker)).toBe(false);

    const r = await u.control();
    const ran = await qwen(bin, r, shell(u.command), r.workspace, r.env);
    expect(results(ran), ran.stderr.slice(-3000)).toHaveLength(1);
    expect(results(ran)[0]).not.toMatch(SCRIPT_DENIED);
    expect(fs.readFileSync(u.marker, 'utf8')).toBe('x-ok from xrunner\n');
  });

  it("an unapproved skill's script: no indirect form finds it in the workspace; the library copy is in reach (not guarded: no sandbox)", async () => {
    const bin = requireAgent('qwen');
    const u = await unapprovedLaunch('qwen');
    const o = await qwen(
      bin,
      u.r,
      { name: 'run_shell_command', args: { command: indirectCommand(fx.sb.lib, '.qwen/skills') } },
      u.r.workspace,
      u.r.env,
    );
    expect(results(o), o.stderr.slice(-3000)).toHaveLength(1);
    expect(formsAttempted(u.r.workspace)).toEqual([...FORMS]);
    expect(formsThatRan(u.r.workspace)).toEqual(LIBRARY_FORMS);
  });

  it("user's project: the same script hook comes with the system-defaults file", async () => {
    const bin = requireAgent('qwen');
    const project = path.join(fx.sb.dir, 'project');
    fs.mkdirSync(project);
    await fx.svc.api.revokeApproval({ name: 'xrunner' });
    const r = await fx.svc.api.launchAssistant({ assistant: 'E2E qwen', workspace: project, onScriptsChanged: 'skip' });
    // index mode: the first message names the skill's real folder, so that is where the model goes
    const marker = path.join(fx.sb.dir, 'x-ran.txt');
    const command = `cd ${path.join(fx.sb.lib, 'xrunner')} && sh scripts/x.sh > ${marker}`;
    const o = await qwen(bin, r, { name: 'run_shell_command', args: { command } }, project, r.env);
    const sent = results(o);
    expect(sent, o.stderr.slice(-3000)).toHaveLength(1);
    expect(sent[0]).toMatch(SCRIPT_DENIED);
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('GitHub Copilot CLI 1.0.102 runs the guard (preToolUse hook)', () => {
  beforeEach(async () => {
    fx = await agentFixture('copilot');
  });

  it('temporary workspace: the bash call writing ~/notes/log.md is denied with the state path; the model is told why', async () => {
    const bin = requireAgent('copilot');
    const r = await fx.launch();
    const call = { name: 'bash', args: { command: LEGACY_SHELL, description: 'Keep a note' } };
    // Headless, repository hooks load only in a trusted folder: --trust-folder trusts it for this run.
    const args = [...r.command.slice(1), '--allow-all-tools', '--trust-folder', '-p', r.firstMessage ?? 'Keep a note.'];
    const o = await scripted(bin, args, openaiChatScript(call), copilotOffline, { cwd: r.workspace, env: r.env });
    const sent = o.requests.map(openaiToolResult).filter((t): t is string => t !== null);
    expect(sent, `copilot sent no tool result:\n${o.stderr.slice(-3000)}\n${o.stdout.slice(-2000)}`).toHaveLength(1);
    expect(sent[0]).toContain('Denied by preToolUse hook');
    expect(sent[0]).toContain(`Suggested path: ${stateDir()}${path.sep}`);
    expect(fs.existsSync(path.join(fx.sb.userHome, 'notes'))).toBe(false);
  });
  it("an unapproved skill's script: the bash call is denied and the script does not run; approved, it runs", async () => {
    const bin = requireAgent('copilot');
    const u = await unapprovedLaunch('copilot');
    const copilot = (r: LaunchResult) => {
      const call = { name: 'bash', args: { command: u.command, description: 'Run x' } };
      // every tool and path allowed (the marker is outside the workspace): only the hook may stop the call
      const args = [...r.command.slice(1), '--allow-all-tools', '--allow-all-paths', '--trust-folder', '-p', r.firstMessage ?? 'Run x.'];
      return scripted(bin, args, openaiChatScript(call), copilotOffline, { cwd: r.workspace, env: r.env });
    };
    const results = (o: Outcome) => o.requests.map(openaiToolResult).filter((t): t is string => t !== null);
    const denied = await copilot(u.r);
    expect(results(denied), `copilot sent no tool result:\n${denied.stderr.slice(-3000)}`).toHaveLength(1);
    expect(results(denied)[0]).toContain('Denied by preToolUse hook');
    expect(results(denied)[0]).toMatch(SCRIPT_DENIED);
    expect(fs.existsSync(u.marker)).toBe(false);

    const ran = await copilot(await u.control());
    expect(results(ran), ran.stderr.slice(-3000)).toHaveLength(1);
    expect(results(ran)[0]).not.toContain('Denied by preToolUse hook');
    expect(fs.readFileSync(u.marker, 'utf8')).toBe('x-ok from xrunner\n');
  });

  it("an unapproved skill's script: no indirect form finds it in the workspace; the library copy is in reach (not guarded: no sandbox)", async () => {
    const bin = requireAgent('copilot');
    const u = await unapprovedLaunch('copilot');
    const call = { name: 'bash', args: { command: indirectCommand(fx.sb.lib, '.github/skills'), description: 'Run x' } };
    const args = [...u.r.command.slice(1), '--allow-all-tools', '--allow-all-paths', '--trust-folder', '-p', u.r.firstMessage ?? 'Run x.'];
    const o = await scripted(bin, args, openaiChatScript(call), copilotOffline, { cwd: u.r.workspace, env: u.r.env });
    expect(
      o.requests.map(openaiToolResult).filter((t) => t !== null),
      o.stderr.slice(-3000),
    ).toHaveLength(1);
    expect(formsAttempted(u.r.workspace)).toEqual([...FORMS]);
    expect(formsThatRan(u.r.workspace)).toEqual(LIBRARY_FORMS);
  });
});

describe('Codex 0.171.0 runs the guard (PreToolUse hook and its trust, as -c arguments for the run)', () => {
  beforeEach(async () => {
    fx = await agentFixture('codex');
  });

  /** `codex <launch args> exec ...` with every call approved and no sandbox: only the hook stands in the way. */
  const codex = (bin: string, command: string[], js: string, cwd: string, env: Record<string, string>) =>
    scripted(
      bin,
      (url) => [
        ...command.slice(1),
        ...codexArgs(url, 'Keep a note.').slice(0, -1),
        '--dangerously-bypass-approvals-and-sandbox',
        'Keep a note.',
      ],
      codexScript(js),
      () => ({ OPENAI_API_KEY: 'recorded' }),
      { cwd, env },
    );
  const shell = (cmd: string) => `const r = await tools.exec_command({ cmd: ${JSON.stringify(cmd)} }); text(JSON.stringify(r));`;
  const results = (o: Outcome) => o.requests.map(codexToolResult).filter((t): t is string => t !== null);
  /** The launch's command without the guard's hook and its trust (two `-c` pairs); the sandbox's stay. */
  const unguarded = (command: string[]) => {
    const out = command.filter((a, i) => !a.startsWith('hooks.') && !(a === '-c' && command[i + 1]?.startsWith('hooks.')));
    expect(command.length - out.length).toBe(4);
    return out;
  };
  const codexConfig = () => path.join(fx.sb.userHome, '.codex', 'config.toml');

  it('temporary workspace: a shell command writing ~/notes/log.md is denied with the state path, nothing is written to ~/.codex; without the arguments it is written', async () => {
    const bin = requireAgent('codex');
    const r = await fx.launch();
    const denied = await codex(bin, r.command, shell(LEGACY_SHELL), r.workspace, r.env);
    const sent = results(denied);
    expect(sent, `codex sent no tool result:\n${denied.stderr.slice(-3000)}\n${denied.stdout.slice(-2000)}`).toHaveLength(1);
    expect(sent[0]).toContain('Command blocked by PreToolUse hook');
    expect(sent[0]).toContain(`Suggested path: ${stateDir()}${path.sep}`);
    expect(fs.existsSync(path.join(fx.sb.userHome, 'notes'))).toBe(false);
    // the trust was for this run only: Codex wrote no config of the user's
    expect(fs.existsSync(codexConfig())).toBe(false);

    const ran = await codex(bin, unguarded(r.command), shell(LEGACY_SHELL), r.workspace, r.env);
    expect(results(ran), ran.stderr.slice(-3000)).toHaveLength(1);
    expect(results(ran)[0]).not.toContain('Command blocked by PreToolUse hook');
    expect(fs.readFileSync(path.join(fx.sb.userHome, 'notes', 'log.md'), 'utf8')).toBe('remember\n');
  });

  it('temporary workspace: an apply_patch adding ~/notes/log.md is denied with the state path', async () => {
    const bin = requireAgent('codex');
    const r = await fx.launch();
    const patch = `*** Begin Patch\n*** Add File: ${path.join(fx.sb.userHome, 'notes', 'log.md')}\n+remember\n*** End Patch\n`;
    const js = `const r = await tools.apply_patch(${JSON.stringify(patch)}); text(JSON.stringify(r));`;
    const o = await codex(bin, r.command, js, r.workspace, r.env);
    const sent = results(o);
    expect(sent, o.stderr.slice(-3000)).toHaveLength(1);
    expect(sent[0]).toContain('Command blocked by PreToolUse hook');
    expect(sent[0]).toContain(`Suggested path: ${stateDir()}${path.sep}`);
    expect(fs.existsSync(path.join(fx.sb.userHome, 'notes'))).toBe(false);
  });

  it("user's project: the same guard with nothing written into the project or the user's Codex config", async () => {
    const bin = requireAgent('codex');
    const project = path.join(fx.sb.dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'README.md'), '# mine\n');
    fs.mkdirSync(path.dirname(codexConfig()), { recursive: true });
    const config = '# my Codex settings\nmodel_reasoning_effort = "low"\n';
    fs.writeFileSync(codexConfig(), config);
    const before = treeHash(project);
    const r = await fx.launch(project);
    const o = await codex(bin, r.command, shell(LEGACY_SHELL), project, r.env);
    const sent = results(o);
    expect(sent, o.stderr.slice(-3000)).toHaveLength(1);
    expect(sent[0]).toContain(`Suggested path: ${stateDir()}${path.sep}`);
    expect(fs.existsSync(path.join(fx.sb.userHome, 'notes'))).toBe(false);
    expect(treeHash(project)).toBe(before);
    expect(fs.readFileSync(codexConfig(), 'utf8')).toBe(config);
  });

  it("an unapproved skill's script: the shell call is denied and the script does not run; approved, it runs", async () => {
    const bin = requireAgent('codex');
    const u = await unapprovedLaunch('codex');
    const denied = await codex(bin, u.r.command, shell(u.command), u.r.workspace, u.r.env);
    expect(results(denied), denied.stderr.slice(-3000)).toHaveLength(1);
    expect(results(denied)[0]).toMatch(SCRIPT_DENIED);
    expect(fs.existsSync(u.marker)).toBe(false);

    const r = await u.control();
    const ran = await codex(bin, r.command, shell(u.command), r.workspace, r.env);
    expect(results(ran), ran.stderr.slice(-3000)).toHaveLength(1);
    expect(results(ran)[0]).not.toMatch(SCRIPT_DENIED);
    expect(fs.readFileSync(u.marker, 'utf8')).toBe('x-ok from xrunner\n');
  });
});
