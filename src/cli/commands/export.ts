import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import { selection } from './select-args.js';

export const exportCommand: CliCommandModule = {
  usage: "skilldock export <name|'glob'>... | --all --agent <id> [--mode copy|link] [--root <dir>] [--json]",
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        all: { type: 'boolean' },
        agent: { type: 'string' },
        mode: { type: 'string', default: 'copy' },
        root: { type: 'string' },
      },
      allowPositionals: true,
    });
    const sel = selection(positionals, values.all, 'library skill');
    if (!values.agent) throw new UsageError('--agent is required (e.g. --agent claude)');
    if (values.mode !== 'copy' && values.mode !== 'link') throw new UsageError('--mode must be copy or link');
    const out = await io.service().api.exportSkills({
      ...sel,
      agent: values.agent,
      mode: values.mode,
      ...(values.root ? { root: values.root } : {}),
    });
    // One skill by its plain name: the output it always had.
    if (values.json)
      printJson(io, positionals.length === 1 && out.results.length === 1 ? { ...out.results[0], journalId: out.journalId } : out);
    else if (!out.results.length) io.out('the library is empty: nothing to export');
    else
      for (const r of out.results)
        io.out(r.status === 'already-present' ? `${r.path} is already there` : `exported (${r.mode}) to ${r.path}`);
    return 0;
  },
};
