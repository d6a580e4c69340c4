import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

export const deleteCommand: CliCommandModule = {
  usage: 'skilldock delete <name>... [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, allowPositionals: true });
    if (!positionals.length) throw new UsageError('give the name of at least one library skill');
    const api = io.service().api;
    const done = [];
    for (const name of positionals) done.push(await api.deleteSkill({ name }));
    if (values.json) printJson(io, { deleted: done });
    else {
      for (const d of done) {
        const what = d.mode === 'link' ? 'link removed (its target is untouched)' : 'moved to the trash';
        io.out(`${paint(io.color, 'bold', d.name)}: ${what}  ${paint(io.color, 'dim', `restore: skilldock restore ${d.trashId}`)}`);
      }
    }
    return 0;
  },
};
