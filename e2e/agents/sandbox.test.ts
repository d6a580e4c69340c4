import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../test/support/workspaces.js';
import { agentFixture, type AgentFixture } from './fixture.js';
import { CLAUDE_OFFLINE, codexArgs } from './capture.js';
import { anthropicScript, anthropicToolResult, codexScript, codexToolResult } from './model-script.js';
import { changedFiles, formsAttempted, formsThatRan, homeProbe, indirectCommand, FORMS } from './indirect.js';
import { requireAgent } from './pins.js';
import { scripted, type Outcome } from './scripted.js';
import type { LaunchResult } from '../../src/contract/index.js';

// The agents' own sandboxes, turned on by the launch (registry `sandbox`), against a model that
// tries: every tool call pre-approved in the CLI, the recorder asking for one shell command that
// (a) writes SkillDock's approvals and settings in the forms of issue 32 break 3, and (b) runs an
// unapproved skill's script through five indirect forms (issue 25). The registry's `protectsHome`
// and `hidesFolders` are what these runs measured; the control (sandbox off, or the skill
// approved) shows each form does its work when nothing stops it.

let fx: AgentFixture;
beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build-engine.mjs'], { cwd: repoRoot, stdio: 'inherit' });
});
afterEach(() => fx.done());

/** xrunner's approval withdrawn, launched with its scripts denied (`skip`). */
async function unapproved(agent: string): Promise<LaunchResult> {
  await fx.svc.api.revokeApproval({ name: 'xrunner' });
  const r = await fx.svc.api.launchAssistant({ assistant: `E2E ${agent}`, onScriptsChanged: 'skip' });
  expect(r.problems.map((p) => `${p.skill}:${p.code}`)).toContain('xrunner:script-blocked');
  return r;
}

describe('Claude Code 2.1.332 with its sandbox (settings beside the hook)', () => {
  const claude = (bin: string, r: LaunchResult, command: string): Promise<Outcome> =>
    scripted(
      fx,
      bin,
      [...r.command.slice(1), '--allowedTools', 'Bash', '-p', 'Do it.', '--output-format', 'stream-json', '--verbose', '--max-turns', '3'],
      anthropicScript({ name: 'Bash', args: { command, description: 'probe' } }),
      (url) => ({ ANTHROPIC_BASE_URL: url }),
      { cwd: r.workspace, env: { ...CLAUDE_OFFLINE, ...r.env } },
    );
  const results = (o: Outcome) => o.requests.map(anthropicToolResult).filter((t): t is string => t !== null);
  const settingsOf = (r: LaunchResult) => path.join(r.workspace, '.claude', 'settings.json');

  it("the shell cannot change SkillDock's approvals or settings in any of break 3's forms; a state dir stays writable; sandbox off, they change", async () => {
    fx = await agentFixture('claude');
    const bin = requireAgent('claude');
    const r = await fx.launch();
    expect(JSON.parse(fs.readFileSync(settingsOf(r), 'utf8')).sandbox).toMatchObject({ enabled: true, allowUnsandboxedCommands: false });
    const probe = await homeProbe(fx, r);
    const o = await claude(bin, r, probe.command);
    expect(results(o), `claude sent no tool result:\n${o.stderr.slice(-3000)}\n${o.stdout.slice(-3000)}`).toHaveLength(1);
    expect(fs.readFileSync(probe.stateProbe, 'utf8')).toBe('ran\n');
    expect(changedFiles(fx, probe)).toEqual([]);

    // the control: the same launch without the sandbox settings
    const settings = JSON.parse(fs.readFileSync(settingsOf(r), 'utf8'));
    delete settings.sandbox;
    fs.writeFileSync(settingsOf(r), JSON.stringify(settings));
    fs.rmSync(probe.stateProbe);
    await claude(bin, r, probe.command);
    expect(fs.readFileSync(probe.stateProbe, 'utf8')).toBe('ran\n');
    expect(changedFiles(fx, probe)).toEqual(['approvals.json', 'settings.json']);
  });

  it("an unapproved skill's script is reached by none of the five indirect forms (workspace and library); approved, every form runs it", async () => {
    fx = await agentFixture('claude');
    const bin = requireAgent('claude');
    const r = await unapproved('claude');
    const command = indirectCommand(fx.sb.lib, '.claude/skills');
    const o = await claude(bin, r, command);
    expect(results(o), `claude sent no tool result:\n${o.stderr.slice(-3000)}\n${o.stdout.slice(-3000)}`).toHaveLength(1);
    expect(formsAttempted(r.workspace)).toEqual([...FORMS]);
    expect(formsThatRan(r.workspace)).toEqual([]);

    // The sandbox is what hides the library's copy: without its denyRead the library forms run it.
    const settings = JSON.parse(fs.readFileSync(settingsOf(r), 'utf8'));
    expect(settings.sandbox.filesystem.denyRead).toEqual([path.join(fx.sb.lib, 'xrunner')]);
    delete settings.sandbox.filesystem;
    fs.writeFileSync(settingsOf(r), JSON.stringify(settings));
    for (const f of FORMS) fs.rmSync(path.join(r.workspace, `m-${f}.txt`));
    await claude(bin, r, command);
    expect(formsThatRan(r.workspace)).toEqual(FORMS.filter((f) => f !== 'ws-glob'));

    await fx.svc.api.approveSkill({ name: 'xrunner' });
    const ok = await fx.launch();
    await claude(bin, ok, command);
    expect(formsThatRan(ok.workspace)).toEqual([...FORMS]);
  });
});

describe("Claude Code 2.1.332 tells the model the hook's reason", () => {
  it("a command naming the unapproved skill's scripts is denied with the reason alone, not the hook's shell script", async () => {
    fx = await agentFixture('claude');
    const bin = requireAgent('claude');
    const r = await unapproved('claude');
    const command = 'sh .claude/skills/xrunner/scripts/x.sh > m-direct.txt';
    const o = await scripted(
      fx,
      bin,
      [...r.command.slice(1), '--allowedTools', 'Bash', '-p', 'Do it.', '--output-format', 'stream-json', '--verbose', '--max-turns', '3'],
      anthropicScript({ name: 'Bash', args: { command, description: 'run x' } }),
      (url) => ({ ANTHROPIC_BASE_URL: url }),
      { cwd: r.workspace, env: { ...CLAUDE_OFFLINE, ...r.env } },
    );
    const sent = o.requests.map(anthropicToolResult).filter((t): t is string => t !== null);
    expect(sent, `claude sent no tool result:\n${o.stderr.slice(-3000)}\n${o.stdout.slice(-3000)}`).toHaveLength(1);
    expect(sent[0]).toMatch(/the scripts of skill \\?"xrunner\\?" are not approved/);
    // Claude Code's own label, then the reason: no shell script between them (exit 2 put `[input=$(cat) || ...]` there)
    expect(sent[0]).toMatch(/^"PreToolUse:Bash hook error: SkillDock: the scripts of skill/);
    expect(sent[0]).not.toContain('input=$(cat)');
    expect(fs.existsSync(path.join(r.workspace, 'm-direct.txt'))).toBe(false);
  });
});

describe('Codex 0.171.0 in its workspace-write sandbox (-c arguments)', () => {
  /** `codex <launch args> exec ...` with no approval asked: the sandbox (and the hook) are all that stand in the way. */
  const codex = (
    bin: string,
    r: LaunchResult,
    command: string,
    launchArgs = r.command.slice(1),
    execArgs: string[] = [],
  ): Promise<Outcome> =>
    scripted(
      fx,
      bin,
      (url) => [...launchArgs, ...codexArgs(url, 'Do it.').slice(0, -1), ...execArgs, 'Do it.'],
      codexScript(`const r = await tools.exec_command({ cmd: ${JSON.stringify(command)} }); text(JSON.stringify(r));`),
      () => ({ OPENAI_API_KEY: 'recorded' }),
      { cwd: r.workspace, env: r.env },
    );
  const results = (o: Outcome) => o.requests.map(codexToolResult).filter((t): t is string => t !== null);
  /** The launch's arguments without the sandbox's `-c` pairs. */
  const noSandbox = (r: LaunchResult) => {
    const args = r.command.slice(1);
    expect(args).toContain('sandbox_mode="workspace-write"');
    return args.filter((a, i) => !a.startsWith('sandbox_') && !(a === '-c' && args[i + 1]?.startsWith('sandbox_')));
  };

  it("the shell cannot change SkillDock's approvals or settings in any of break 3's forms; a state dir stays writable; sandbox off, they change", async () => {
    fx = await agentFixture('codex');
    const bin = requireAgent('codex');
    const r = await fx.launch();
    const probe = await homeProbe(fx, r);
    const o = await codex(bin, r, probe.command);
    expect(results(o), `codex sent no tool result:\n${o.stderr.slice(-3000)}\n${o.stdout.slice(-2000)}`).toHaveLength(1);
    expect(fs.existsSync(probe.stateProbe), results(o)[0]).toBe(true);
    expect(changedFiles(fx, probe), `${o.stderr.slice(0, 3000)}\n${results(o)[0]}`).toEqual([]);

    fs.rmSync(probe.stateProbe);
    // (`codex exec` alone runs read-only: the control turns every sandbox off, as a user may.)
    await codex(bin, r, probe.command, noSandbox(r), ['--dangerously-bypass-approvals-and-sandbox']);
    expect(fs.readFileSync(probe.stateProbe, 'utf8')).toBe('ran\n');
    expect(changedFiles(fx, probe)).toEqual(['approvals.json', 'settings.json']);
  });

  it("an unapproved skill's script: no workspace form finds it, but the library copy stays readable (registry hidesFolders: false)", async () => {
    fx = await agentFixture('codex');
    const bin = requireAgent('codex');
    const r = await unapproved('codex');
    const o = await codex(bin, r, indirectCommand(fx.sb.lib, '.agents/skills'));
    expect(results(o), `codex sent no tool result:\n${o.stderr.slice(-3000)}\n${o.stdout.slice(-2000)}`).toHaveLength(1);
    expect(formsAttempted(r.workspace), results(o)[0]).toEqual([...FORMS]);
    // Measured: the workspace holds no script; the library's is read and run inside the sandbox.
    expect(formsThatRan(r.workspace)).not.toContain('ws-glob');
    // (The fixture's home is under /tmp, so the launch took /tmp and $TMPDIR out of the shell's reach: no copy there.)
    expect(formsThatRan(r.workspace)).toEqual(['glob', 'variable', 'find-exec', 'substitution']);
  });
});
