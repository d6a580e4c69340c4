import path from 'node:path';
import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import { CONFLICT_CHOICES, formatImportSummary } from './library-format.js';

export const importCommand: CliCommandModule = {
  usage: 'skilldock import <path>... [--on-conflict replace|keep-both|skip] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, 'on-conflict': { type: 'string' } },
      allowPositionals: true,
    });
    if (!positionals.length) throw new UsageError('give at least one folder or archive to import');
    const choice = values['on-conflict'];
    if (choice !== undefined && !(CONFLICT_CHOICES as readonly string[]).includes(choice)) {
      throw new UsageError(`--on-conflict must be one of ${CONFLICT_CHOICES.join(', ')}`);
    }
    // A progress line on an interactive terminal only (never in --json or piped output).
    const tty = !values.json && process.stderr.isTTY === true;
    const off = tty
      ? io.service().on((e) => {
          if (e.type !== 'import-progress') return;
          const mb = (n: number) => (n / 1048576).toFixed(1);
          process.stderr.write(`\r\u001b[2Kimporting ${e.skillsDone}/${e.skillsTotal} skills, ${mb(e.bytesDone)}/${mb(e.bytesTotal)} MB`);
        })
      : () => {};
    const summary = await io.service().api.importPaths({
      paths: positionals.map((p) => path.resolve(io.cwd, p)),
      ...(choice ? { onConflict: choice as (typeof CONFLICT_CHOICES)[number] } : {}),
    });
    off();
    if (tty) process.stderr.write('\r\u001b[2K');
    if (values.json) printJson(io, summary);
    else io.out(formatImportSummary(summary, io.color));
    return summary.conflicts > 0 || summary.refused > 0 ? 1 : 0;
  },
};
