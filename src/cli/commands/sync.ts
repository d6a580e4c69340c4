import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import type { SyncResult } from '../../contract/index.js';

function say(io: CliIO, r: SyncResult): number {
  if (r.message) io.out(`committed: ${r.message}`);
  if (r.status === 'conflicts') {
    io.out(`${r.conflicts.length} conflict(s); nothing was pushed or changed here:`);
    for (const c of r.conflicts) io.out(`  ${c.unit}  ${c.path}  (${c.kind})`);
    io.out('Settle each with `skilldock sync resolve <unit> --take mine|theirs` (or edit the skill), then run `skilldock sync`.');
    return 1;
  }
  const a = r.applied;
  if (a) {
    if (a.skills.length) io.out(`skills taken: ${a.skills.join(', ')}`);
    if (a.removed.length) io.out(`skills removed (in the trash): ${a.removed.join(', ')}`);
    if (a.approvals.length) io.out(`approvals taken: ${a.approvals.join(', ')}`);
    if (a.notApplied.length) io.out(`approvals not taken (the scripts differ here): ${a.notApplied.join(', ')}`);
    if (a.refused.length) io.out(`not taken: ${a.refused.join(', ')}`);
  }
  if (r.skipped.length) io.out(`not synced (links or too large): ${r.skipped.join(', ')}`);
  io.out(r.status === 'up-to-date' ? 'Up to date.' : r.status === 'pushed' ? 'Pushed.' : 'Merged and pushed.');
  return 0;
}

export const syncCommand: CliCommandModule = {
  usage: [
    'skilldock sync [--adopt] [--json]',
    'skilldock sync setup <REMOTE-URL> [--adopt] [--json]',
    'skilldock sync status [--json]',
    'skilldock sync resolve <UNIT> --take mine|theirs',
  ].join('\n       '),
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, adopt: { type: 'boolean' }, take: { type: 'string' } },
      allowPositionals: true,
    });
    const api = io.service().api;
    const [sub, arg] = positionals;
    if (sub === 'setup') {
      if (!arg || positionals.length !== 2) throw new UsageError('name the remote: skilldock sync setup <REMOTE-URL>');
      const r = await api.syncSetup({ url: arg, adopt: !!values.adopt });
      if (values.json) printJson(io, r);
      return values.json ? (r.status === 'conflicts' ? 1 : 0) : say(io, r);
    }
    if (sub === 'status') {
      const s = await api.syncStatus({});
      if (values.json) printJson(io, s);
      else if (!s.url) io.out('Sync is not set up.');
      else {
        io.out(`remote: ${s.url}`);
        io.out(`last sync: ${s.head ?? 'never'}`);
        io.out(s.changed ? 'local changes: yes (run `skilldock sync`)' : 'local changes: none');
        for (const c of s.conflicts) io.out(`conflict: ${c.unit}  ${c.path}  (${c.kind})`);
      }
      return 0;
    }
    if (sub === 'resolve') {
      if (!arg || (values.take !== 'mine' && values.take !== 'theirs'))
        throw new UsageError('skilldock sync resolve <UNIT> --take mine|theirs');
      await api.syncResolve({ unit: arg, take: values.take });
      io.out(`${arg}: ${values.take} will be taken at the next sync`);
      return 0;
    }
    if (sub !== undefined) throw new UsageError(`unknown sync command: ${sub}`);
    const r = await api.syncRun({ adopt: !!values.adopt });
    if (values.json) {
      printJson(io, r);
      return r.status === 'conflicts' ? 1 : 0;
    }
    return say(io, r);
  },
};
