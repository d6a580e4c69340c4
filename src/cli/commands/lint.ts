import path from 'node:path';
import { parseArgs } from 'node:util';
import type { LintReport } from '../../contract/index.js';
import { formatDiagnostic, paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

/** Findings grouped by skill, then one summary line. Clean skills get one short line each. */
export function formatLintReport(report: LintReport, color: boolean): string {
  const lines: string[] = [];
  for (const s of report.skills) {
    const label = paint(color, 'bold', s.name ?? path.basename(s.dir));
    if (!s.diagnostics.length) {
      lines.push(`${paint(color, 'green', 'ok')}  ${label}  ${paint(color, 'dim', s.dir)}`);
      continue;
    }
    lines.push('', `${label}  ${paint(color, 'dim', s.dir)}`);
    for (const d of s.diagnostics) lines.push(formatDiagnostic(d, color));
  }
  const { skills, errors, warnings, infos } = report.summary;
  const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? '' : 's'}`;
  const tally = `${plural(skills, 'skill')}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`;
  lines.push('', paint(color, errors ? 'red' : 'green', tally));
  return lines.join('\n').replace(/^\n/, '');
}

export const lintCommand: CliCommandModule = {
  usage: 'skilldock lint <path>... [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, allowPositionals: true });
    if (!positionals.length) throw new UsageError('give at least one skill folder or root');
    const paths = positionals.map((p) => path.resolve(io.cwd, p));
    const report = await io.service().api.lintPaths({ paths });
    if (values.json) printJson(io, report);
    else io.out(formatLintReport(report, io.color));
    return report.summary.errors > 0 ? 1 : 0;
  },
};
