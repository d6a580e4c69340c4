import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../test/support/workspaces.js';
import { agentFixture, type AgentFixture } from './fixture.js';
import { CLAUDE_OFFLINE, codexArgs } from './capture.js';
import { anthropicScript, anthropicToolResult, codexScript, codexToolResult } from './model-script.js';
import { requireAgent } from './pins.js';
import { scripted } from './scripted.js';
import { Ledger } from '../../src/usage/ledger.js';
import { LOG_SOURCES, scanSource } from '../../src/usage/logs.js';
import type { LaunchResult } from '../../src/contract/index.js';

// The usage ledger with the real CLIs. The recording model server answers with the call that loads
// a skill (Claude Code: its Skill tool; Codex: a shell read of the skill's SKILL.md); the launch's
// usage hook records it, and the ledger counts it. The session log the same run wrote under the
// user's HOME (Claude Code's transcript, Codex's rollout) is then fed to the log parser: the
// parsers are checked on transcripts the pinned CLIs wrote, not on hand-written ones.

let fx: AgentFixture;
beforeAll(() => {
  // The hooks run this checkout's bundled CLI (bin/skilldock.js -> dist/cli.mjs).
  execFileSync(process.execPath, ['scripts/build-engine.mjs'], { cwd: repoRoot, stdio: 'inherit' });
});
afterEach(() => fx.done());

/** The skill uses a fresh ledger finds in the logs under the fixture user's HOME, and the scan's state. */
function scanLogs(agent: 'claude' | 'codex') {
  const src = LOG_SOURCES.find((s) => s.agent === agent)!;
  const home = path.join(fx.sb.dir, `fresh-${agent}`);
  const ledger = new Ledger(home);
  const state = ledger.update((d, add) => scanSource(src, fx.sb.userHome, d, (a, u) => add(a, u, 'log'), Date.now()));
  return { state, events: ledger.snapshot().events };
}

describe('Claude Code 2.1.332: a Skill tool call is counted by the hook and found in its transcript', () => {
  const claude = (bin: string, r: LaunchResult, skill: string) =>
    scripted(
      fx,
      bin,
      [
        ...r.command.slice(1),
        '--allowedTools',
        'Skill',
        '-p',
        'Use the skill.',
        '--output-format',
        'stream-json',
        '--verbose',
        '--max-turns',
        '3',
      ],
      anthropicScript({ name: 'Skill', args: { skill } }),
      (url) => ({ ANTHROPIC_BASE_URL: url }),
      { cwd: r.workspace, env: { ...CLAUDE_OFFLINE, ...r.env } },
    );

  it('the ledger counts notes-keeper for claude once (hook and transcript are one call); the transcript parser finds it', async () => {
    fx = await agentFixture('claude');
    const bin = requireAgent('claude');
    const r = await fx.launch();
    const o = await claude(bin, r, 'notes-keeper');
    const sent = o.requests.map(anthropicToolResult).filter((t): t is string => t !== null);
    expect(sent, `claude sent no tool result:\n${o.stderr.slice(-3000)}\n${o.stdout.slice(-3000)}`).toHaveLength(1);

    const byHook = await fx.svc.api.usageSummary({});
    expect(byHook.rows).toMatchObject([{ skill: 'notes-keeper', agent: 'claude', counts: { d7: 1, d30: 1, d90: 1 } }]);

    // The transcript Claude Code wrote for this run, read by the log parser.
    const fromLog = scanLogs('claude');
    expect(fromLog.state.format).toBe('ok');
    expect(fromLog.state.files).toBeGreaterThan(0);
    expect(fromLog.state.bad).toBe(0);
    expect(fromLog.events.map((e) => `${e.agent}/${e.skill}`)).toEqual(['claude/notes-keeper']);

    // Opted in, the same home scans the same transcript: the call is already counted (one tool-use id).
    await fx.svc.api.updateSettings({ usageReadLogs: true });
    const both = await fx.svc.api.usageScan({});
    expect(both.logs.claude).toMatchObject({ format: 'ok', bad: 0 });
    expect(both.rows).toMatchObject([{ skill: 'notes-keeper', agent: 'claude', counts: { d7: 1 } }]);
  }, 300_000);
});

describe('Codex 0.171.0: a shell read of SKILL.md is counted by the hook and found in its rollout', () => {
  const codex = (bin: string, command: string[], js: string, cwd: string, env: Record<string, string>) =>
    scripted(
      fx,
      bin,
      (url) => [
        ...command.slice(1),
        ...codexArgs(url, 'Use the skill.').slice(0, -1),
        '--dangerously-bypass-approvals-and-sandbox',
        'Use the skill.',
      ],
      codexScript(js),
      () => ({ OPENAI_API_KEY: 'recorded' }),
      { cwd, env },
    );

  it('the ledger counts style-guide for codex; the rollout parser finds it', async () => {
    fx = await agentFixture('codex');
    const bin = requireAgent('codex');
    const r = await fx.launch();
    const link = r.links.find((l) => l.skill === 'style-guide')!;
    const cmd = `cat ${path.relative(r.workspace, path.join(link.path, 'SKILL.md'))}`;
    const js = `const r = await tools.exec_command({ cmd: ${JSON.stringify(cmd)} }); text(JSON.stringify(r));`;
    const o = await codex(bin, r.command, js, r.workspace, r.env);
    const sent = o.requests.map(codexToolResult).filter((t): t is string => t !== null);
    expect(sent, `codex sent no tool result:\n${o.stderr.slice(-3000)}\n${o.stdout.slice(-2000)}`).toHaveLength(1);
    expect(sent[0]).toContain(ATTACHED_STYLE);

    const byHook = await fx.svc.api.usageSummary({ agent: 'codex' });
    expect(byHook.rows).toMatchObject([{ skill: 'style-guide', agent: 'codex', counts: { d7: 1 } }]);

    const rollouts = fs.existsSync(path.join(fx.sb.userHome, '.codex', 'sessions'));
    expect(rollouts, 'codex wrote no session under ~/.codex/sessions').toBe(true);
    const fromLog = scanLogs('codex');
    expect(fromLog.state.format).toBe('ok');
    expect(fromLog.state.bad).toBe(0);
    expect(fromLog.events.map((e) => `${e.agent}/${e.skill}`)).toEqual(['codex/style-guide']);
  }, 300_000);
});

const ATTACHED_STYLE = 'Applies the house style';
