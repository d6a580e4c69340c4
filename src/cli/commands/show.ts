import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatDiagnostic, paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

export const showCommand: CliCommandModule = {
  usage: 'skilldock show <name> [--json] [--project DIR] [--root DIR]...',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, project: { type: 'string' }, root: { type: 'string', multiple: true } },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one skill name');
    const a = await io.service().api.activateSkill({
      name: positionals[0],
      ...(values.project ? { project: path.resolve(io.cwd, values.project) } : {}),
      ...(values.root?.length ? { roots: values.root.map((r) => path.resolve(io.cwd, r)) } : {}),
    });
    if (values.json) {
      // The executable surface and its approval state (issue 6), next to the activation.
      const [inventory, trust] = await Promise.all([
        io.service().api.getInventory({ dir: a.dir }),
        io.service().api.getSkillTrust({ dir: a.dir }),
      ]);
      printJson(io, { ...a, security: { inventory, trust } });
      return 0;
    }
    const safe = a; // escaped at the edge (guardEdge in main.ts)
    const e = safe.entry;
    const out = [
      `${paint(io.color, 'bold', e.name)}  ${paint(io.color, 'dim', `${e.provenance.rootId}  ${safe.dir}`)}`,
      e.description,
      '',
      ...(e.diagnostics.length ? [...e.diagnostics.map((d) => formatDiagnostic(d, io.color)), ''] : []),
      safe.body.replace(/\s+$/, ''),
      '',
      paint(io.color, 'dim', safe.files.length ? `files:\n${safe.files.map((f) => `  ${f}`).join('\n')}` : 'no resource files'),
    ];
    io.out(out.join('\n'));
    return 0;
  },
};
