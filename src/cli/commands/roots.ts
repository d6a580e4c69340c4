import path from 'node:path';
import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';

export const rootsCommand: CliCommandModule = {
  usage: 'skilldock roots [--json] [--project DIR] [--root DIR]...',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, project: { type: 'string' }, root: { type: 'string', multiple: true } },
    });
    const roots = await io.service().api.listRoots({
      ...(values.project ? { project: path.resolve(io.cwd, values.project) } : {}),
      ...(values.root?.length ? { roots: values.root.map((r) => path.resolve(io.cwd, r)) } : {}),
    });
    if (values.json) {
      printJson(io, roots);
      return 0;
    }
    const width = Math.max(...roots.map((r) => r.id.length));
    io.out(
      roots
        .map((r) => {
          const mark = r.exists ? paint(io.color, 'green', '+') : paint(io.color, 'dim', '-');
          const agents = r.agents.length ? paint(io.color, 'dim', `  [${r.agents.join(', ')}]`) : '';
          return `${String(r.precedence).padStart(2)} ${mark} ${r.id.padEnd(width)}  ${r.path}${agents}`;
        })
        .join('\n'),
    );
    return 0;
  },
};
