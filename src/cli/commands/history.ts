import { parseArgs } from 'node:util';
import type { HistoryEntry } from '../../contract/index.js';
import { formatMessage } from '../../contract/messages-text.js';
import { paint, printJson, termSafe } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

/** What an entry touched, in a few words: its skills, the agent and the folder it wrote outside the library. */
function touched(e: HistoryEntry): string {
  const t = e.touched;
  if (!t) return '';
  const parts: string[] = [];
  if (t.skills.length) parts.push(`skills: ${t.skills.slice(0, 8).join(', ')}${t.skills.length > 8 ? ` (+${t.skills.length - 8})` : ''}`);
  if (t.agent) parts.push(`agent: ${t.agent}`);
  if (t.paths.length) parts.push(`at: ${t.paths.slice(0, 3).join(', ')}${t.paths.length > 3 ? ` (+${t.paths.length - 3})` : ''}`);
  return parts.join('; ');
}

/** One line: id, time, what it was (for a record: what it undid or redid), what it touched, its state. */
function line(e: HistoryEntry, color: boolean): string {
  const what = termSafe(e.what ? formatMessage(e.what) : (e.summary ?? ''));
  if (e.op === 'undo' || e.op === 'redo') {
    return `${e.id}  ${e.time}  ${paint(color, 'dim', `${e.op} of ${what}${e.of ? ` (${e.of})` : ''}`)}`;
  }
  if (!e.state) return `${e.id}  ${e.time || '?'}  ${paint(color, 'bold', e.op)}  ${termSafe(e.summary ?? '')}`;
  const mark = e.state === 'undone' ? ` ${paint(color, 'dim', '(undone)')}` : '';
  const t = termSafe(touched(e));
  return `${e.id}  ${e.time}  ${paint(color, 'bold', e.op)}  ${what}${t ? `  [${t}]` : ''}${mark}`;
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
    for (const e of entries) io.out(line(e, io.color));
    if (entries.some((e) => e.state)) io.out(paint(io.color, 'dim', 'undo or redo one: skilldock undo ID, skilldock redo ID'));
    return unrepaired ? 1 : 0;
  },
};
