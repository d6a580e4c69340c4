import { parseArgs } from 'node:util';
import { printJson, paint, type Colour } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';
import type { CheckResult } from '../../contract/index.js';

const LABEL: Record<CheckResult['status'], [string, Colour]> = {
  'up-to-date': ['up to date', 'green'],
  'update-available': ['UPDATE', 'yellow'],
  'changed-locally': ['changed locally', 'dim'],
  'upstream-removed': ['REMOVED UPSTREAM', 'red'],
  unreachable: ['UNREACHABLE', 'red'],
  pinned: ['pinned', 'dim'],
  missing: ['missing', 'dim'],
};

export const checkCommand: CliCommandModule = {
  usage: 'skilldock check [NAME...] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, allowPositionals: true });
    const r = await io.service().api.checkSources(positionals.length ? { names: positionals } : {});
    if (values.json) printJson(io, r);
    else if (!r.results.length) io.out('No skills from sources in the library (add some with skilldock add <source>).');
    else {
      for (const x of r.results) {
        const [label, colour] = LABEL[x.status];
        io.out(`${paint(io.color, colour, label.padEnd(18))} ${x.message}`);
        for (const [k, list] of [
          ['+', x.added],
          ['~', x.changed],
          ['-', x.removed],
        ] as const) {
          for (const f of list ?? []) io.out(paint(io.color, 'dim', `    ${k} ${f}`));
        }
      }
    }
    // A source that could not be read is a failed check, never "all well": exit 1 when any (or
    // every) skill's source was unreachable, and say how many sources that was.
    const down = new Set(r.results.filter((x) => x.status === 'unreachable').map((x) => x.source));
    if (down.size && !values.json) {
      const all = new Set(r.results.map((x) => x.source)).size;
      io.out(
        paint(io.color, 'red', `${down.size} of ${all} source${all === 1 ? '' : 's'} could not be reached; their skills were not checked.`),
      );
    }
    return r.updates > 0 || down.size > 0 ? 1 : 0;
  },
};
