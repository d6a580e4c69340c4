import path from 'node:path';
import { parseArgs } from 'node:util';
import { printJson, paint, termSafe } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';
import { refusalLines, writeLines } from './project.js';

const SAID = { present: 'present', library: 'from the library', fetched: 'fetched' } as const;

export const installCommand: CliCommandModule = {
  usage: 'skilldock install [dir] [--agent ID]... [--dry-run] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, 'dry-run': { type: 'boolean' }, agent: { type: 'string', multiple: true } },
      allowPositionals: true,
    });
    const project = path.resolve(io.cwd, positionals[0] ?? '.');
    try {
      const out = await io.service().api.installProject({
        project,
        ...(values.agent?.length ? { agents: values.agent } : {}),
        ...(values['dry-run'] ? { preview: true } : {}),
      });
      if (values.json) {
        printJson(io, out);
        return 0;
      }
      io.out(`${paint(io.color, 'bold', termSafe(out.lock))}: ${out.skills.length} skill${out.skills.length === 1 ? '' : 's'}`);
      for (const s of out.skills) {
        const at = s.commit ? ` at ${s.commit.slice(0, 12)}` : '';
        io.out(`  ${termSafe(s.name).padEnd(24)} ${SAID[s.status]}${s.status === 'present' ? '' : ` (${termSafe(s.source)}${at})`}`);
      }
      if (!out.writes.length) io.out('Nothing to write: the project matches its lock.');
      else {
        io.out(out.applied ? `Wrote ${out.writes.length} entries:` : `Would write ${out.writes.length} entries:`);
        writeLines(io, out.writes);
      }
      return 0;
    } catch (err) {
      if (!values.json && refusalLines(io, err)) return 1;
      throw err;
    }
  },
};
