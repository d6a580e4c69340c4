import { parseArgs } from 'node:util';
import { formatMessage } from '../../contract/messages-text.js';
import { printJson, termSafe } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';

export const doctorCommand: CliCommandModule = {
  usage: 'skilldock doctor [--repair] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' }, repair: { type: 'boolean' } } });
    const r = await io.service().api.doctor({ repair: values.repair === true });
    const damage = r.journalDamage ?? null;
    const found = r.interrupted !== null || r.staleStaging.length > 0 || r.incompleteTrash.length > 0 || damage !== null;
    if (values.json) {
      printJson(io, r);
    } else {
      if (r.interrupted)
        io.out(
          `interrupted: ${r.interrupted.op} begun ${r.interrupted.time} (${r.interrupted.changes} change(s) announced)` +
            (r.interrupted.committed ? '; its journal entry is written: it had finished' : ''),
        );
      if (damage) io.out(`journal: ${termSafe(formatMessage(damage.msg))}`);
      for (const s of r.staleStaging) io.out(`stale staging: ${s}`);
      for (const t of r.incompleteTrash) io.out(`incomplete trash entry (not listed, left for you to look at): ${t}`);
      const rb = r.rolledBack;
      if (rb?.outcome === 'committed') io.out(`kept the finished ${rb.op} and cleared what it had left pending`);
      else if (rb?.outcome === 'finished') io.out(`finished the interrupted undo: ${rb.undone} more change(s) reverted`);
      else if (rb) io.out(`rolled back the interrupted ${rb.op}: ${rb.undone} change(s) undone`);
      for (const f of r.rolledBack?.failed ?? []) io.out(`could not undo ${f.path}: ${f.reason}`);
      if (r.repaired && r.staleStaging.length) io.out(`removed ${r.staleStaging.length} stale staging folder(s)`);
      if (!found) io.out('Nothing to repair: no interrupted operation, no stale staging, every trash entry whole, the journal readable.');
      else if (!r.repaired) io.out('Run `skilldock doctor --repair` to roll the interrupted operation back and sweep staging.');
    }
    // Exit 1 while something is left to repair (or could not be).
    const left = r.repaired ? (r.rolledBack?.failed.length ?? 0) > 0 || r.incompleteTrash.length > 0 : found;
    return left ? 1 : 0;
  },
};
