import type { Diagnostic } from '../contract/index.js';

const codes = { red: 31, yellow: 33, cyan: 36, dim: 2, bold: 1, green: 32 } as const;
export type Colour = keyof typeof codes;

export function paint(enabled: boolean, colour: Colour, text: string): string {
  return enabled ? `\u001b[${codes[colour]}m${text}\u001b[0m` : text;
}

/** `file:line:col  severity  code  message` then an indented fix. */
export function formatDiagnostic(d: Diagnostic, color: boolean): string {
  const where = `${d.file}${d.line ? `:${d.line}` : ''}${d.line && d.column ? `:${d.column}` : ''}`;
  const sev = paint(color, d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'yellow' : 'cyan', d.severity);
  let text = `  ${where}  ${sev}  ${paint(color, 'dim', d.code)}  ${d.message}`;
  if (d.agents?.length) text += paint(color, 'dim', ` [${d.agents.join(', ')}]`);
  if (d.fix) text += `\n      ${paint(color, 'dim', 'fix:')} ${d.fix}`;
  return text;
}

export function printJson(io: { out(t: string): void; prettyJson?: boolean }, value: unknown): void {
  io.out(io.prettyJson === false ? JSON.stringify(value) : JSON.stringify(value, null, 2));
}
