import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillDockEvent } from '../contract/index.js';
import { getSecurity } from './security-service.js';
import { securityEnv, writeSkill, type SecurityEnv } from '../../test/support/security.js';

// Approval pinned to the surface digest: prose edits keep it, a one-byte script change breaks it,
// the diff shows what changed, and every approval is journaled with who, when and the digest.

let env: SecurityEnv;
let lib: string;
beforeEach(() => {
  env = securityEnv();
  lib = path.join(env.home, 'library');
});
afterEach(async () => {
  await env.cleanup();
});

const BODY = '# Sheets\n\nSummarise a CSV.\n\n```bash\npython scripts/sum.py data.csv\n```\n';
const SCRIPT = 'import csv, sys\nrows = list(csv.reader(open(sys.argv[1])))\nprint(len(rows))\n';

function makeSkill(name = 'sheets'): string {
  return writeSkill(lib, name, BODY, { 'scripts/sum.py': SCRIPT, 'references/notes.md': '# Notes\n' });
}

describe('approval pinned to the surface digest', () => {
  it('needs approval under "ask", is approved after approveSkill, by name through the catalog', async () => {
    makeSkill();
    const api = env.service.api;
    expect((await api.getSettings({})).scriptPolicy).toBe('ask');
    const before = await api.getSkillTrust({ name: 'sheets' });
    expect(before).toMatchObject({ status: 'unapproved', needsApproval: true, scriptsAllowed: false, approval: null });
    const events: SkillDockEvent[] = [];
    env.service.on((e) => events.push(e));
    const after = await api.approveSkill({ name: 'sheets' });
    expect(after).toMatchObject({ status: 'approved', needsApproval: false, scriptsAllowed: true, approvedDigest: before.digest });
    expect(after.approval?.approvedBy).toBe(os.userInfo().username);
    expect(Date.now() - Date.parse(after.approval!.approvedAt)).toBeLessThan(60_000);
    expect(events).toContainEqual({ type: 'approval-changed', name: 'sheets', action: 'approved', digest: before.digest });
    expect((await api.listApprovals({})).map((a) => [a.name, a.digest])).toEqual([['sheets', before.digest]]);
    // on disk, in the store's envelope
    const file = JSON.parse(fs.readFileSync(path.join(env.home, 'approvals.json'), 'utf8'));
    expect(file.data.approvals[0].digest).toBe(before.digest);
  });

  it('stays approved after a prose-only edit', async () => {
    const dir = makeSkill();
    await env.service.api.approveSkill({ dir });
    const md = path.join(dir, 'SKILL.md');
    fs.writeFileSync(
      md,
      fs.readFileSync(md, 'utf8').replace('Summarise a CSV.', 'Summarise a CSV file, with totals.\n\nNew advice paragraph.'),
    );
    fs.writeFileSync(path.join(dir, 'references', 'notes.md'), '# Notes\n\nRewritten.\n');
    expect((await env.service.api.getSkillTrust({ dir })).status).toBe('approved');
  });

  it('is invalidated by a one-byte change to a script, and the diff shows the changed line', async () => {
    const dir = makeSkill();
    await env.service.api.approveSkill({ dir });
    fs.writeFileSync(path.join(dir, 'scripts', 'sum.py'), SCRIPT.replace('print(len(rows))', 'print(len(rowz))'));
    const trust = await env.service.api.getSkillTrust({ dir });
    expect(trust).toMatchObject({ status: 'changed', needsApproval: true, scriptsAllowed: false });
    expect(trust.approvedDigest).not.toBe(trust.digest);
    const diff = await env.service.api.approvalDiff({ dir });
    expect(diff.status).toBe('changed');
    expect(diff.files).toHaveLength(1);
    expect(diff.files[0]).toMatchObject({ path: 'scripts/sum.py', change: 'modified', binary: false });
    expect(diff.files[0].diff).toContain('-print(len(rows))');
    expect(diff.files[0].diff).toContain('+print(len(rowz))');
    expect(diff.files[0].diff).toMatch(/^@@ -1,3 \+1,3 @@$/m);
  });

  it('the diff lists added and removed files and changed commands; re-approval pins the new digest', async () => {
    const dir = makeSkill();
    await env.service.api.approveSkill({ dir });
    fs.writeFileSync(path.join(dir, 'scripts', 'extra.sh'), 'echo extra\n');
    fs.rmSync(path.join(dir, 'scripts', 'sum.py'));
    const md = path.join(dir, 'SKILL.md');
    fs.writeFileSync(md, fs.readFileSync(md, 'utf8').replace('python scripts/sum.py data.csv', 'bash scripts/extra.sh'));
    const diff = await env.service.api.approvalDiff({ dir });
    expect(diff.files.map((f) => [f.path, f.change])).toEqual([
      ['scripts/extra.sh', 'added'],
      ['scripts/sum.py', 'removed'],
    ]);
    expect(diff.commands).toEqual({ added: ['bash scripts/extra.sh'], removed: ['python scripts/sum.py data.csv'] });
    const again = await env.service.api.approveSkill({ dir });
    expect(again.status).toBe('approved');
    expect((await env.service.api.approvalDiff({ dir })).files).toEqual([]);
  });

  it('journals approvals and revocations with who, when and digest; undo walks them back', async () => {
    const dir = makeSkill();
    const api = env.service.api;
    const t = await api.approveSkill({ dir });
    expect(await api.revokeApproval({ name: 'sheets' })).toEqual({ removed: true });
    expect(await api.revokeApproval({ name: 'sheets' })).toEqual({ removed: false });
    const { entries } = await api.journal({});
    const ours = entries
      .filter((e) => e.op.startsWith('scripts-'))
      .sort((a, b) => a.time.localeCompare(b.time) || (a.op === 'scripts-approve' ? -1 : 1));
    expect(ours.map((e) => e.op)).toEqual(['scripts-approve', 'scripts-revoke']);
    expect(ours[0]).toMatchObject({ skill: 'sheets', digest: t.digest, approvedBy: os.userInfo().username });
    expect(typeof ours[0].time).toBe('string');
    // undo the revoke: the approval is back; undo the approval: it is gone
    await api.undo({});
    expect((await api.getSkillTrust({ dir })).status).toBe('approved');
    await api.undo({});
    expect((await api.getSkillTrust({ dir })).status).toBe('unapproved');
  });

  it('policy "allowed" needs no approval; "never" allows no scripts even when approved', async () => {
    const dir = makeSkill();
    const api = env.service.api;
    await api.updateSettings({ scriptPolicy: 'allowed' });
    expect(await api.getSkillTrust({ dir })).toMatchObject({ status: 'unapproved', needsApproval: false, scriptsAllowed: true });
    await api.updateSettings({ scriptPolicy: 'never' });
    await api.approveSkill({ dir });
    expect(await api.getSkillTrust({ dir })).toMatchObject({ status: 'approved', needsApproval: false, scriptsAllowed: false });
  });

  it('a skill without an executable surface needs nothing', async () => {
    const dir = writeSkill(lib, 'plain', '# Plain\n\nWrite in a friendly tone.\n');
    expect(await env.service.api.getSkillTrust({ dir })).toMatchObject({
      status: 'no-surface',
      needsApproval: false,
      scriptsAllowed: true,
    });
  });

  it('checkAttach / requireApproved refuse an unapproved or changed skill under "ask"', async () => {
    makeSkill();
    const entry = await env.service.api.getSkill({ name: 'sheets' });
    const sec = getSecurity(env.service.ctx);
    expect(sec.checkAttach(entry)).toMatchObject({ ok: false });
    expect(() => sec.requireApproved(entry)).toThrow(/approve/);
    try {
      sec.requireApproved(entry);
    } catch (err) {
      expect((err as { code: string }).code).toBe('refused');
      expect((err as { details: unknown }).details).toMatchObject({ skill: 'sheets', status: 'unapproved' });
    }
    await env.service.api.approveSkill({ name: 'sheets' });
    expect(sec.requireApproved(entry).status).toBe('approved');
  });

  it('gives clear errors for unknown skills and bad refs', async () => {
    const bad = await env.service.call('getSkillTrust', { name: 'nope' });
    expect(bad.ok).toBe(false);
    const both = await env.service.call('approveSkill', { name: 'a', dir: '/tmp' });
    expect(both).toMatchObject({ ok: false, error: { code: 'bad-request' } });
    const noSkill = await env.service.call('approveSkill', { dir: env.userHome });
    expect(noSkill).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });
});
