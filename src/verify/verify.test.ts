import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createService, type SkillDockService } from '../service.js';
import { SkillDockError } from '../errors.js';
import { cliScript, resources, sandbox, writeSkill, type Sandbox } from '../../test/support/workspaces.js';
import { fakeClaude, hangingCli, loginCli, offlineCli } from '../../test/support/fake-agent.js';
import { waitFor } from '../../test/support/wait.js';
import { verifyAgent } from './verify.js';

// `verifyAgent` with stand-in CLIs (real scripts, real process groups, the real recorder): the
// comparison and its differences, and every way a CLI can fail the check. The six real CLIs are
// proven in e2e/agents/verify.test.ts.

let sb: Sandbox;
let svc: SkillDockService;
let bin: string;
beforeEach(() => {
  sb = sandbox();
  bin = path.join(sb.dir, 'bin');
  svc = createService({ paths: { home: sb.home, userHome: sb.userHome, resourcesDir: resources } });
});
afterEach(async () => {
  await svc.close();
  sb.done();
});

async function refusal(p: Promise<unknown>): Promise<SkillDockError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof SkillDockError)) throw new Error(`expected a refusal, got ${String(err)}`);
  return err;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const LONG = 'A description long enough that the stand-in CLI lists this skill by name only, not in full.';

// Each check spawns CLIs (the CLI test, the engine too): bounds well above what was measured (1-6 s).
describe('verifyAgent with a stand-in CLI', { timeout: 120_000 }, () => {
  it('sets the capture beside the prediction: the same row agrees, a name-only row differs and says what to do', async () => {
    const root = path.join(sb.userHome, '.claude', 'skills');
    writeSkill(root, 'short-one', { description: 'Short and sweet.' });
    writeSkill(root, 'long-one', { description: LONG });
    const r = await svc.api.verifyAgent({ agent: 'claude', cli: fakeClaude(bin), timeoutMs: 60_000 });
    expect(r.version).toBe('9.9.9');
    expect(r.cli).toBe(path.join(bin, 'claude'));
    expect(r.notes.map((n) => n.key)).toEqual(['verify.note.version']);
    const row = (label: string) => r.rows.find((x) => x.label === label)!;
    expect(row('short-one')).toMatchObject({
      same: true,
      predicted: { shown: 'full' },
      captured: { shown: 'full', description: 'Short and sweet.' },
    });
    expect(row('long-one')).toMatchObject({
      same: false,
      predicted: { shown: 'full', description: LONG },
      captured: { shown: 'name-only', description: null },
      advice: { key: 'verify.advice.name-only' },
    });
    expect(r.differences).toBe(1);
    // The scratch home's links were removed, never followed: the user's skills are all there.
    expect(fs.readFileSync(path.join(root, 'long-one', 'SKILL.md'), 'utf8')).toContain(LONG);
  });

  it('takes the CLI set in settings (agentCli) when none is given', async () => {
    writeSkill(path.join(sb.userHome, '.claude', 'skills'), 'short-one', { description: 'Short.' });
    await svc.api.updateSettings({ agentCli: { claude: fakeClaude(bin) } });
    const r = await svc.api.verifyAgent({ agent: 'claude', timeoutMs: 60_000 });
    expect(r.rows.map((x) => [x.label, x.same])).toEqual([['short-one', true]]);
  });

  it('a CLI that is not installed: a coded refusal naming the command, nothing run', async () => {
    const empty = path.join(sb.dir, 'empty-path');
    fs.mkdirSync(empty);
    const err = await refusal(verifyAgent(svc.ctx, { agent: 'codex' }, { PATH: empty }));
    expect(err.msg).toEqual({ key: 'verify.cli-missing', params: { agent: 'Codex', command: 'codex' } });
    const gone = await refusal(svc.api.verifyAgent({ agent: 'claude', cli: path.join(sb.dir, 'nope') }));
    expect(gone.msg?.key).toBe('verify.cli-path-missing');
  });

  it('an agent SkillDock cannot point at a recorder: a coded refusal', async () => {
    const err = await refusal(svc.api.verifyAgent({ agent: 'generic', cli: offlineCli(bin) }));
    expect(err.msg?.key).toBe('verify.unsupported');
  });

  it('a CLI that hangs: stopped at the time-out with the helper it started, a coded message', async () => {
    const pids = path.join(sb.dir, 'pids');
    const err = await refusal(svc.api.verifyAgent({ agent: 'claude', cli: hangingCli(bin, pids), timeoutMs: 3000 }));
    expect(err.msg?.key).toBe('verify.timeout');
    expect(err.msg?.params).toMatchObject({ seconds: 3 });
    const ids = fs.readFileSync(pids, 'utf8').trim().split(/\s+/).map(Number);
    expect(ids).toHaveLength(2);
    await waitFor(() => ids.every((id) => !alive(id)), { timeoutMs: 10_000, what: 'the hanging CLI and its helper to be gone' });
  });

  it('a CLI that asks for a login on the terminal: it finds none, and the message says it asked', async () => {
    const err = await refusal(svc.api.verifyAgent({ agent: 'claude', cli: loginCli(bin), timeoutMs: 30_000 }));
    expect(err.msg?.key).toBe('verify.login');
    expect(err.msg?.params).toMatchObject({ agent: 'Claude Code', version: '1.0.0', checkedOn: '2.1.332' });
  });

  it('a CLI that ignores the base URL: it ends without calling the recorder, and the message names the setting', async () => {
    const err = await refusal(svc.api.verifyAgent({ agent: 'claude', cli: offlineCli(bin), timeoutMs: 30_000 }));
    expect(err.msg).toEqual({
      key: 'verify.ignored-base-url',
      params: { agent: 'Claude Code', version: '0.0.1', checkedOn: '2.1.332', setting: 'ANTHROPIC_BASE_URL', status: 0 },
    });
  });

  it('skilldock verify prints the comparison, exits 1 on a difference, and --json gives the result', () => {
    writeSkill(path.join(sb.userHome, '.claude', 'skills'), 'long-one', { description: LONG });
    const env = { ...process.env, SKILLDOCK_HOME: sb.home, SKILLDOCK_USER_HOME: sb.userHome, HOME: sb.userHome, NO_COLOR: '1' };
    const cli = fakeClaude(bin);
    const text = spawnSync(process.execPath, [cliScript, 'verify', 'claude', '--cli', cli], { env, encoding: 'utf8', timeout: 90_000 });
    expect(text.status).toBe(1);
    expect(text.stdout).toContain('DIFF  long-one  name only');
    expect(text.stdout).toContain('1 difference(s): the capture is right');
    const json = spawnSync(process.execPath, [cliScript, 'verify', 'claude', '--cli', cli, '--json'], {
      env,
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(JSON.parse(json.stdout)).toMatchObject({ agent: { id: 'claude' }, version: '9.9.9', differences: 1 });
    const usage = spawnSync(process.execPath, [cliScript, 'verify'], { env, encoding: 'utf8', timeout: 90_000 });
    expect(usage.status).toBe(2);
  });
});
