import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJournal } from '../library/journal.js';
import { securityEnv, writeSkill, type SecurityEnv } from '../../test/support/security.js';

// Approving many skills (issue 28): names, globs over the catalog's names, or every skill not yet
// approved, in one journal entry that one undo takes back whole.

let env: SecurityEnv;
beforeEach(() => {
  env = securityEnv();
});
afterEach(async () => {
  await env.cleanup();
});

const BODY = '# Tool\n\nRun it.\n\n```bash\npython scripts/run.py\n```\n';
const make = (name: string) => writeSkill(path.join(env.home, 'library'), name, BODY, { 'scripts/run.py': `print("${name}")\n` });

describe('bulk approve', () => {
  it('a glob approves every match in one entry; one undo removes them all; redo puts them back', async () => {
    for (const n of ['beta-1', 'beta-2', 'alpha']) make(n);
    const api = env.service.api;
    const n = readJournal(env.service.ctx).length;
    const r = await api.approveSkills({ names: ['beta-*'] });
    expect(r.results.map((t) => [t.name, t.status])).toEqual([
      ['beta-1', 'approved'],
      ['beta-2', 'approved'],
    ]);
    const entries = readJournal(env.service.ctx).slice(n);
    expect(entries.map((e) => [e.op, e.id])).toEqual([['scripts-approve', r.journalId]]);
    const hist = (await api.journal({})).entries.find((e) => e.id === r.journalId)!;
    expect(hist.what).toEqual({ key: 'journal.what.scripts-approve-many', params: { count: 2 } });
    expect((await api.listApprovals({})).map((a) => a.name).sort()).toEqual(['beta-1', 'beta-2']);
    await api.undo({ id: r.journalId });
    expect(await api.listApprovals({})).toEqual([]);
    await api.redo({ id: r.journalId });
    expect((await api.listApprovals({})).map((a) => a.name).sort()).toEqual(['beta-1', 'beta-2']);
    // --all: only what still needs approval (alpha)
    const all = await api.approveSkills({ all: true });
    expect(all.results.map((t) => t.name)).toEqual(['alpha']);
    expect((await api.getSkillTrust({ name: 'alpha' })).status).toBe('approved');
  }, 60_000);

  it('a glob that matches no skill is refused, coded; nothing is approved', async () => {
    make('alpha');
    const r = await env.service.call('approveSkills', { names: ['zeta-*'] });
    expect(r.ok ? null : r.error).toMatchObject({
      code: 'not-found',
      msg: { key: 'select.no-match-catalog', params: { pattern: 'zeta-*' } },
    });
    expect(await env.service.api.listApprovals({})).toEqual([]);
  }, 60_000);
});
