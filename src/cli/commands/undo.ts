import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';

export const undoCommand: CliCommandModule = {
  usage: 'skilldock undo [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
    const out = await io.service().api.undo({});
    if (values.json) printJson(io, out);
    else io.out(out.message);
    return 0;
  },
};
