import { parseArgs } from 'node:util';
import type { JournalEntry } from '../../contract/index.js';
import { formatMessage } from '../../contract/messages-text.js';
import { paint, printJson, termSafe } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

/** What one journal entry changed on disk, in a few words. */
function changeCounts(e: JournalEntry): string {
  const counts = new Map<string, number>();
  for (const c of e.changes ?? []) counts.set(c.kind, (counts.get(c.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}

export const historyCommand: CliCommandModule = {
  usage: 'skilldock history [--limit N] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' }, limit: { type: 'string' } } });
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw new UsageError('--limit takes a whole number from 1 to 10000');
    const { entries, warnings = [] } = await io.service().api.journal({ limit });
    // Lines that could not be read and are not set aside yet: a finding (exit 1) until repaired.
    const unrepaired = warnings.some((w) => w.key === 'journal.damaged');
    for (const w of warnings) io.err(`warning: ${termSafe(formatMessage(w))}`);
    if (values.json) {
      printJson(io, { entries, warnings });
      return unrepaired ? 1 : 0;
    }
    if (!entries.length) io.out('Nothing in the journal yet.');
    const undone = new Set(entries.map((e) => e.undoes).filter((x): x is string => typeof x === 'string'));
    for (const e of entries) {
      const mark = undone.has(e.id) ? ` ${paint(io.color, 'dim', '(undone)')}` : '';
      const what = changeCounts(e);
      if (e.op === 'damaged') {
        io.out(`${e.time || '?'}  ${paint(io.color, 'bold', e.op)}  ${termSafe(e.summary ?? '')}`);
        continue;
      }
      io.out(`${e.time}  ${paint(io.color, 'bold', e.op)}  ${termSafe(e.summary ?? '')}${what ? `  [${what}]` : ''}${mark}  ${e.id}`);
    }
    return unrepaired ? 1 : 0;
  },
};
