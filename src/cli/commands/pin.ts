import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

export const pinCommand: CliCommandModule = {
  usage: 'skilldock pin <NAME> [--ref REF] [--off] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, ref: { type: 'string' }, off: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('name one skill');
    const name = positionals[0]!;
    if (values.off) {
      const r = await io.service().api.unpinSkill({ name });
      if (values.json) printJson(io, r);
      else io.out(`${name} is no longer pinned`);
      return 0;
    }
    const r = await io.service().api.pinSkill({ name, ...(values.ref ? { ref: values.ref } : {}) });
    if (values.json) printJson(io, r);
    else io.out(`${name} pinned to ${r.pinned}`);
    return 0;
  },
};
