import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';

export const trashCommand: CliCommandModule = {
  usage: 'skilldock trash [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
    const { items } = await io.service().api.listTrash({});
    if (values.json) printJson(io, { items });
    else if (!items.length) io.out('The trash is empty.');
    else
      for (const t of items)
        io.out(
          `${t.id}  ${paint(io.color, 'bold', t.name)}  ${t.reason} ${t.time}${t.mode === 'link' ? ` (link to ${t.linkTarget})` : ''}`,
        );
    return 0;
  },
};
