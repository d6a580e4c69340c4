import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

export const exportCommand: CliCommandModule = {
  usage: 'skilldock export <name> --agent <id> [--mode copy|link] [--root <dir>] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        agent: { type: 'string' },
        mode: { type: 'string', default: 'copy' },
        root: { type: 'string' },
      },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one library skill name');
    if (!values.agent) throw new UsageError('--agent is required (e.g. --agent claude)');
    if (values.mode !== 'copy' && values.mode !== 'link') throw new UsageError('--mode must be copy or link');
    const out = await io.service().api.exportSkill({
      name: positionals[0],
      agent: values.agent,
      mode: values.mode,
      ...(values.root ? { root: values.root } : {}),
    });
    if (values.json) printJson(io, out);
    else io.out(out.status === 'already-present' ? `${out.path} is already there` : `exported (${out.mode}) to ${out.path}`);
    return 0;
  },
};
