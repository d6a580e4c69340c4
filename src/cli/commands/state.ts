import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule } from '../types.js';

const USAGE = `skilldock state <action> [options]

  resolve <skill://state/ID/PATH> [--json]   the real path of a file in a skill's state dir
  list [--json]                              every state dir with its size`;

export const stateCommand: CliCommandModule = {
  usage: USAGE,
  async run(argv, io) {
    const [action, ...rest] = argv;
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, strict: true, options: { json: { type: 'boolean' } } });
    if (action === 'resolve') {
      if (positionals.length !== 1) throw new UsageError('expected exactly one skill://state/<id>/<path> URI');
      const r = await io.service().api.resolveStateUri({ uri: positionals[0]! });
      if (values.json) printJson(io, r);
      else io.out(r.path);
      return 0;
    }
    if (action === 'list') {
      if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`);
      const { listStateDirs } = await import('../../state/index.js');
      const dirs = listStateDirs(io.service().paths.home);
      if (values.json) printJson(io, dirs);
      else if (!dirs.length) io.out(paint(io.color, 'dim', 'No state dirs yet (they are created at launch).'));
      else
        for (const d of dirs)
          io.out(
            `${d.id.padEnd(32)}  ${String(d.files).padStart(5)} files  ${String(d.bytes).padStart(9)} bytes  ${paint(io.color, 'dim', d.dir)}`,
          );
      return 0;
    }
    throw new UsageError(action ? `unknown action "${action}"` : 'expected an action: resolve or list');
  },
};
