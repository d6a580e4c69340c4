import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';
import { selection } from './select-args.js';

export const pinCommand: CliCommandModule = {
  usage: "skilldock pin <NAME|'glob'>... | --all [--ref REF] [--off] [--json]   (one operation: one undo)",
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, ref: { type: 'string' }, off: { type: 'boolean' }, all: { type: 'boolean' } },
      allowPositionals: true,
    });
    const sel = selection(positionals, values.all, 'skill');
    const r = await io
      .service()
      .api.pinSkills({ ...sel, ...(values.ref ? { ref: values.ref } : {}), ...(values.off ? { off: true } : {}) });
    // One skill by its plain name: the output it always had.
    if (values.json) printJson(io, positionals.length === 1 && r.results.length === 1 ? { ...r.results[0], journalId: r.journalId } : r);
    else if (!r.results.length) io.out('no skill was added from a source: nothing to pin');
    else for (const x of r.results) io.out(x.pinned === null ? `${x.name} is no longer pinned` : `${x.name} pinned to ${x.pinned}`);
    return 0;
  },
};
