import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ScanReport } from '../../contract/index.js';
import { formatDiagnostic, paint } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

const LEVEL_COLOUR = { high: 'red', medium: 'yellow', low: 'cyan' } as const;

/** Findings grouped by skill with their risk level, then one summary line. */
export function formatScanReport(report: ScanReport, color: boolean): string {
  const lines: string[] = [];
  for (const s of report.skills) {
    const label = paint(color, 'bold', s.name ?? path.basename(s.dir));
    const surface = s.hasExecutableSurface
      ? paint(color, 'dim', `surface ${s.surfaceDigest.slice(0, 12)}`)
      : paint(color, 'dim', 'no executable surface');
    if (!s.findings.length) {
      lines.push(`${paint(color, 'green', 'ok')}  ${label}  ${surface}  ${paint(color, 'dim', s.dir)}`);
      continue;
    }
    lines.push('', `${label}  ${surface}  ${paint(color, 'dim', s.dir)}`);
    for (const f of s.findings) lines.push(`${paint(color, LEVEL_COLOUR[f.level], f.level.padEnd(6))}${formatDiagnostic(f, color)}`);
  }
  const { skills, high, medium, low } = report.summary;
  const tally = `${skills} ${skills === 1 ? 'skill' : 'skills'}: ${high} high, ${medium} medium, ${low} low`;
  lines.push('', paint(color, high ? 'red' : 'green', tally));
  return lines.join('\n').replace(/^\n/, '');
}

export const scanCommand: CliCommandModule = {
  usage: 'skilldock scan <path>... [--json | --format text|json|sarif] [--output FILE]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, format: { type: 'string' }, output: { type: 'string', short: 'o' } },
      allowPositionals: true,
    });
    if (!positionals.length) throw new UsageError('give at least one skill folder, root or file');
    const format = values.format ?? (values.json ? 'json' : 'text');
    if (!['text', 'json', 'sarif'].includes(format)) throw new UsageError(`unknown format "${format}" (text, json or sarif)`);
    if (values.json && values.format && values.format !== 'json') throw new UsageError('--json and --format disagree');
    const paths = positionals.map((p) => path.resolve(io.cwd, p));
    const report = await io.service().api.scanPaths({ paths });
    let text: string;
    if (format === 'sarif') text = JSON.stringify((await import('../../security/index.js')).toSarif(report, { cwd: io.cwd }), null, 2);
    else if (format === 'json') text = JSON.stringify(report, null, 2);
    else text = formatScanReport(report, io.color && !values.output);
    if (values.output) {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path.resolve(io.cwd, values.output), text.endsWith('\n') ? text : `${text}\n`);
      if (format !== 'text') io.out(formatScanReport(report, io.color));
    } else {
      io.out(text);
    }
    return report.summary.high > 0 ? 1 : 0;
  },
};
