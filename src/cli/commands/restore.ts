import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

export const restoreCommand: CliCommandModule = {
  usage: 'skilldock restore <trash-id|name> [--as NEW-NAME | --replace] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, as: { type: 'string' }, replace: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give one trash id or skill name (see `skilldock trash`)');
    if (values.as !== undefined && values.replace) throw new UsageError('choose one of --as and --replace');
    const api = io.service().api;
    const { items } = await api.listTrash({});
    const wanted = positionals[0];
    const hit = items.find((t) => t.id === wanted) ?? items.find((t) => t.name === wanted); // newest first
    if (!hit) throw new UsageError(`nothing named "${wanted}" in the trash (see \`skilldock trash\`)`);
    // Replace: the skill now holding the name goes to the trash first (its own undo step).
    if (values.replace) await api.deleteSkill({ name: hit.name });
    const out = await api.restoreSkill({ id: hit.id, ...(values.as !== undefined ? { as: values.as } : {}) });
    if (values.json) printJson(io, out);
    else io.out(`${out.name} restored to ${out.dir}`);
    return 0;
  },
};
