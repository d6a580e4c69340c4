import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createService } from '../service.js';
import { securityEnv, writeSkill, type SecurityEnv } from '../../test/support/security.js';
import { cliScript } from '../../test/support/workspaces.js';

// Issue 32 break 3 where an agent has no sandbox: approvals.json and settings.json changed by
// something other than SkillDock (the break's shell forms, run here by a real shell) are trusted in
// nothing until the user confirms them, in the app (listTrustFiles / confirmTrustFile) and the CLI.

let env: SecurityEnv;
let lib: string;
beforeEach(() => {
  env = securityEnv();
  lib = path.join(env.home, 'library');
});
afterEach(async () => {
  await env.cleanup();
});

const sh = (command: string) => {
  const r = spawnSync('sh', ['-c', command], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', H: env.home } });
  expect(r.status, r.stderr).toBe(0);
};

/** Two approved skills, one unapproved; settings written by SkillDock. */
async function approvedTwo() {
  const api = env.service.api;
  for (const n of ['alpha', 'beta', 'gamma'])
    writeSkill(lib, n, '# x\n\nRun `python scripts/run.py`.\n', { 'scripts/run.py': 'print(1)\n' });
  await api.approveSkill({ name: 'alpha' });
  await api.approveSkill({ name: 'beta' });
  await api.updateSettings({ scriptPolicy: 'ask' });
  expect(await api.listTrustFiles({})).toEqual([
    { file: 'approvals.json', status: 'sealed' },
    { file: 'settings.json', status: 'sealed' },
  ]);
}

describe('the trust seal on approvals.json and settings.json', () => {
  it("an approval added by a shell (sed -i on the file) counts for nothing until the user confirms the file; SkillDock's own writes keep it sealed", async () => {
    await approvedTwo();
    const api = env.service.api;
    const gammaDigest = (await api.getSkillTrust({ name: 'gamma' })).digest;
    // The agent copies beta's approval onto gamma in place, as `sed -i` would.
    const file = path.join(env.home, 'approvals.json');
    const approvals = JSON.parse(fs.readFileSync(file, 'utf8'));
    const forged = { ...approvals.data.approvals[1], name: 'gamma', dir: path.join(lib, 'gamma'), digest: gammaDigest };
    fs.writeFileSync(
      path.join(env.dir, 'forged.json'),
      JSON.stringify({ ...approvals, data: { approvals: [...approvals.data.approvals, forged] } }),
    );
    sh(`cd "$H" && cat ${path.join(env.dir, 'forged.json')} > approvals.json`);

    expect(await api.listTrustFiles({})).toContainEqual({ file: 'approvals.json', status: 'changed' });
    // nothing from the changed file is trusted: not the forged approval, not the real ones
    for (const n of ['alpha', 'beta', 'gamma']) expect((await api.getSkillTrust({ name: n })).status, n).toBe('unapproved');
    expect(await api.listApprovals({})).toEqual([]);
    // approving now would seal what the agent wrote along with it: refused, naming the file
    const refused = await env.service.call('approveSkill', { name: 'alpha' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(!refused.ok && refused.error.message).toContain('was changed by something other than SkillDock');

    // the user confirms the file in the app: it counts again (gamma's forged approval included: the user saw it)
    expect(await api.confirmTrustFile({ file: 'approvals.json' })).toEqual({ file: 'approvals.json', status: 'sealed' });
    expect((await api.getSkillTrust({ name: 'gamma' })).status).toBe('approved');
    await api.revokeApproval({ name: 'gamma' });
    expect(await api.listTrustFiles({})).toContainEqual({ file: 'approvals.json', status: 'sealed' });
  });

  it("break 3's other forms (truncate, rm, $(echo ...) > file) are told apart from SkillDock's writes too, in a second process as well", async () => {
    await approvedTwo();
    for (const form of ['truncate -s0 "$H/approvals.json"', 'rm "$H/approvals.json"', 'echo x > "$(echo "$H")/approvals.json"']) {
      const fresh = securityEnvAt(env.home);
      await fresh.api.confirmTrustFile({ file: 'approvals.json' });
      expect((await fresh.api.listTrustFiles({}))[0]).toEqual({ file: 'approvals.json', status: 'sealed' });
      sh(form);
      expect((await fresh.api.listTrustFiles({}))[0], form).toEqual({ file: 'approvals.json', status: 'changed' });
      await fresh.close();
    }
  });

  it('settings.json changed to scriptPolicy "allowed" behind SkillDock\'s back: the policy stays "ask" until confirmed', async () => {
    await approvedTwo();
    const api = env.service.api;
    sh(`sed -i 's/"scriptPolicy": "ask"/"scriptPolicy": "allowed"/' "$H/settings.json"`);
    expect((await api.getSettings({})).scriptPolicy).toBe('allowed'); // the file says so...
    expect(await api.listTrustFiles({})).toContainEqual({ file: 'settings.json', status: 'changed' });
    expect((await api.getSkillTrust({ name: 'gamma' })).policy).toBe('ask'); // ...trust does not follow
    expect((await api.getSkillTrust({ name: 'gamma' })).scriptsAllowed).toBe(false);

    // the CLI lists and confirms the same way
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [cliScript, 'approve', ...args], {
        encoding: 'utf8',
        env: { ...process.env, SKILLDOCK_HOME: env.home, SKILLDOCK_USER_HOME: env.userHome },
      });
    const listed = cli('--files');
    expect(listed.status).toBe(1);
    expect(listed.stdout).toContain('settings.json  changed by something other than SkillDock');
    const confirmed = cli('--confirm-file', 'settings.json');
    expect(confirmed.status, confirmed.stderr).toBe(0);
    expect(cli('--files').status).toBe(0);
    expect((await api.getSkillTrust({ name: 'gamma' })).policy).toBe('allowed');
  });

  it('an approvals.json with no record of SkillDock writing it (copied in, or from before the seal) needs confirming', async () => {
    await approvedTwo();
    fs.rmSync(path.join(env.home, 'security', 'trust-seal.json'));
    expect(await env.service.api.listTrustFiles({})).toEqual([
      { file: 'approvals.json', status: 'changed' },
      { file: 'settings.json', status: 'changed' },
    ]);
  });
});

function securityEnvAt(home: string) {
  return createService({ paths: { home, userHome: env.userHome, resourcesDir: env.resourcesDir } });
}
