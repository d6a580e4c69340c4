import { parseArgs } from 'node:util';
import { formatMessage } from '../../contract/messages-text.js';
import { printJson, termSafe } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

/** `undo [ID]` and `redo [ID]`: one operation by its journal id (see `skilldock history`), else the newest. */
function act(action: 'undo' | 'redo'): CliCommandModule {
  return {
    usage: `skilldock ${action} [ID] [--json]`,
    async run(argv: string[], io: CliIO): Promise<number> {
      const { values, positionals } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, allowPositionals: true });
      if (positionals.length > 1) throw new UsageError(`${action} takes at most one operation id (see skilldock history)`);
      const id = positionals[0];
      const input = id ? { id } : {};
      const out = action === 'undo' ? await io.service().api.undo(input) : await io.service().api.redo(input);
      if (values.json) {
        printJson(io, out);
        return 0;
      }
      const target = 'undone' in out ? out.undone : out.redone;
      io.out(termSafe(formatMessage({ key: action === 'undo' ? 'journal.undone' : 'journal.redone', params: { what: out.what } })));
      if (out.message && !out.message.startsWith('Undid') && !out.message.startsWith('Redid')) io.out(termSafe(out.message));
      io.out(`${action === 'undo' ? 'redo' : 'undo'} with: skilldock ${action === 'undo' ? 'redo' : 'undo'} ${target.id}`);
      return 0;
    },
  };
}

export const undoCommand = act('undo');
export const redoCommand = act('redo');
