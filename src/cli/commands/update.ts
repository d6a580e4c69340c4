import { parseArgs } from 'node:util';
import { printJson, paint, type Colour } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import type { UpdateResult } from '../../contract/index.js';

const LABEL: Partial<Record<UpdateResult['status'], [string, Colour]>> = {
  updated: ['updated', 'green'],
  conflict: ['CONFLICT', 'red'],
  'upstream-removed': ['REMOVED UPSTREAM', 'red'],
  unreachable: ['UNREACHABLE', 'red'],
};
const MARK: Record<string, string> = { added: '+', changed: '~', removed: '-', merged: 'M', kept: '=', conflict: '!', resolved: 'R' };

export const updateCommand: CliCommandModule = {
  usage: 'skilldock update <NAME...|--all> [--take upstream|mine] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, all: { type: 'boolean' }, take: { type: 'string' } },
      allowPositionals: true,
    });
    if (!values.all && !positionals.length) throw new UsageError('name the skills to update, or use --all');
    if (values.take !== undefined && values.take !== 'upstream' && values.take !== 'mine')
      throw new UsageError('--take must be upstream or mine');
    const r = await io.service().api.updateSkills({
      ...(positionals.length ? { names: positionals } : { all: true }),
      ...(values.take ? { take: values.take as 'upstream' | 'mine' } : {}),
    });
    if (values.json) printJson(io, r);
    else {
      for (const x of r.results) {
        const [label, colour] = LABEL[x.status] ?? [x.status, 'dim'];
        io.out(`${paint(io.color, colour, label.padEnd(18))} ${x.message}`);
        for (const f of x.files)
          io.out(
            paint(
              io.color,
              f.action === 'conflict' ? 'red' : 'dim',
              `    ${MARK[f.action] ?? '?'} ${f.path}${f.conflict ? ` (${f.conflict})` : ''}`,
            ),
          );
      }
      if (r.journalId) io.out(paint(io.color, 'dim', `Undo with: skilldock undo ${r.journalId}`));
    }
    return r.results.some((x) => x.status === 'conflict' || x.status === 'unreachable') ? 1 : 0;
  },
};
