import path from 'node:path';
import { parseArgs } from 'node:util';
import { printJson, paint, termSafe } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';
import { CONFLICT_CHOICES, formatImportSummary } from './library-format.js';

export const addCommand: CliCommandModule = {
  usage: 'skilldock add <source> [--skill NAME]... [--ref REF] [--list] [--on-conflict replace|keep-both|skip] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        list: { type: 'boolean' },
        skill: { type: 'string', multiple: true },
        ref: { type: 'string' },
        'on-conflict': { type: 'string' },
      },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one source');
    const choice = values['on-conflict'];
    if (choice !== undefined && !(CONFLICT_CHOICES as readonly string[]).includes(choice)) {
      throw new UsageError(`--on-conflict must be one of ${CONFLICT_CHOICES.join(', ')}`);
    }
    const given = positionals[0]!;
    // A relative local path is relative to where the command runs.
    const { isLocalPath } = await import('../../sources/index.js');
    const source = isLocalPath(given) && !given.startsWith('~') ? path.resolve(io.cwd, given) : given;
    const r = await io.service().api.addFromSource({
      source,
      ...(values.ref ? { ref: values.ref } : {}),
      ...(values.skill?.length ? { skills: values.skill } : {}),
      ...(values.list ? { preview: true } : {}),
      ...(choice ? { onConflict: choice as (typeof CONFLICT_CHOICES)[number] } : {}),
    });
    if (values.json) {
      printJson(io, r);
      return r.summary && (r.summary.conflicts > 0 || r.summary.refused > 0) ? 1 : 0;
    }
    io.out(
      `${paint(io.color, 'bold', r.source.given)} at ${r.commit.slice(0, 12)}: ${r.found.length} skill${r.found.length === 1 ? '' : 's'} found`,
    );
    // Left out on purpose (a link out of the source): said, so a missing skill is not a mystery.
    for (const s of r.skipped ?? []) io.out(`  ${paint(io.color, 'yellow', 'skipped')}  ${termSafe(s.message)}`);
    if (!r.summary) {
      for (const f of r.found) {
        io.out(
          `  ${(f.name ?? '(no name)').padEnd(28)} ${paint(io.color, 'dim', f.path || '.')}  ${f.errors} errors, ${f.warnings} warnings`,
        );
      }
      return 0;
    }
    io.out(formatImportSummary(r.summary, io.color));
    return r.summary.conflicts > 0 || r.summary.refused > 0 ? 1 : 0;
  },
};
