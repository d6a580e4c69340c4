import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import { selection } from './select-args.js';

export const restoreCommand: CliCommandModule = {
  usage: "skilldock restore <trash-id|name|'glob'>... | --all [--as NEW-NAME | --replace] [--json]",
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, as: { type: 'string' }, replace: { type: 'boolean' }, all: { type: 'boolean' } },
      allowPositionals: true,
    });
    if (values.as !== undefined && values.replace) throw new UsageError('choose one of --as and --replace');
    const api = io.service().api;
    if (values.as !== undefined || values.replace) {
      if (positionals.length !== 1 || values.all) throw new UsageError('--as and --replace take one trash id or skill name');
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
    }
    const sel = selection(positionals, values.all, 'trash entry');
    let input: { ids?: string[]; names?: string[]; all?: boolean } = sel;
    if ('names' in sel) {
      // a trash id is taken as an id; anything else is a name or a glob over the trash's names
      const ids = new Set((await api.listTrash({})).items.map((t) => t.id));
      input = { ids: sel.names.filter((n) => ids.has(n)), names: sel.names.filter((n) => !ids.has(n)) };
    }
    const out = await api.restoreSkills(input);
    if (values.json) printJson(io, out);
    else if (!out.results.length) io.out('the trash is empty: nothing to restore');
    else for (const r of out.results) io.out(`${r.name} restored to ${r.dir}`);
    return 0;
  },
};
