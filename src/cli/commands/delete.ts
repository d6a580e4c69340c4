import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';
import { selection } from './select-args.js';

export const deleteCommand: CliCommandModule = {
  usage: "skilldock delete <name|'glob'>... | --all [--json]   (one operation: one undo brings them all back)",
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, all: { type: 'boolean' } },
      allowPositionals: true,
    });
    const out = await io.service().api.deleteSkills(selection(positionals, values.all, 'library skill'));
    if (values.json) printJson(io, { deleted: out.results, ...(out.journalId ? { journalId: out.journalId } : {}) });
    else if (!out.results.length) io.out('the library is empty: nothing to delete');
    else {
      for (const d of out.results) {
        const what = d.mode === 'link' ? 'link removed (its target is untouched)' : 'moved to the trash';
        io.out(`${paint(io.color, 'bold', d.name)}: ${what}  ${paint(io.color, 'dim', `restore: skilldock restore ${d.trashId}`)}`);
      }
      if (out.results.length > 1) io.out(paint(io.color, 'dim', `one operation: skilldock undo ${out.journalId} brings all back`));
    }
    return 0;
  },
};
