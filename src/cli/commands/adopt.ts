import path from 'node:path';
import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import { CONFLICT_CHOICES, formatImportSummary } from './library-format.js';

export const adoptCommand: CliCommandModule = {
  usage:
    'skilldock adopt [--agent <id>] [--json]   |   skilldock adopt <name|path>... --mode copy|link [--on-conflict replace|keep-both|skip] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, agent: { type: 'string' }, mode: { type: 'string' }, 'on-conflict': { type: 'string' } },
      allowPositionals: true,
    });
    const api = io.service().api;
    const { skills } = await api.listAdoptable(values.agent ? { agent: values.agent } : {});
    if (!positionals.length) {
      if (values.json) printJson(io, { skills });
      else if (!skills.length) io.out("No skills in the agents' user folders.");
      else {
        for (const s of skills) {
          const state = s.inLibrary === 'no' ? paint(io.color, 'green', 'adoptable') : `in library (${s.inLibrary})`;
          io.out(
            `${paint(io.color, 'bold', s.name ?? s.dirName)}  ${state}  ${paint(io.color, 'dim', `${s.path} [${s.agents.join(', ')}]`)}`,
          );
        }
        io.out(paint(io.color, 'dim', '\nAdopt with: skilldock adopt <name> --mode copy|link'));
      }
      return 0;
    }
    const mode = values.mode as 'copy' | 'link';
    if (mode !== 'copy' && mode !== 'link')
      throw new UsageError('choose --mode copy (the library gets its own copy) or --mode link (the original stays where it is)');
    const choice = values['on-conflict'];
    if (choice !== undefined && !(CONFLICT_CHOICES as readonly string[]).includes(choice)) {
      throw new UsageError(`--on-conflict must be one of ${CONFLICT_CHOICES.join(', ')}`);
    }
    const items = positionals.map((arg) => {
      if (arg.includes('/') || arg.startsWith('.')) return { path: path.resolve(io.cwd, arg), mode };
      const hits = skills.filter((s) => s.name === arg || s.dirName === arg);
      if (hits.length === 0) throw new UsageError(`no skill "${arg}" in the agents' user folders (run \`skilldock adopt\` to list them)`);
      if (hits.length > 1) throw new UsageError(`"${arg}" is in several folders; give its path: ${hits.map((h) => h.path).join(', ')}`);
      return { path: hits[0].path, mode };
    });
    const summary = await api.adoptSkills({
      items,
      ...(choice ? { onConflict: choice as (typeof CONFLICT_CHOICES)[number] } : {}),
    });
    if (values.json) printJson(io, summary);
    else io.out(formatImportSummary(summary, io.color));
    return summary.conflicts > 0 || summary.refused > 0 ? 1 : 0;
  },
};
