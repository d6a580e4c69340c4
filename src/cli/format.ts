import type { Diagnostic } from '../contract/index.js';
import { ChunkWriter } from '../chunk-writer.js';
import type { CliIO, OutPiece } from './types.js';

const codes = { red: 31, yellow: 33, cyan: 36, dim: 2, bold: 1, green: 32 } as const;
export type Colour = keyof typeof codes;

/**
 * Control characters (C0 but line feed and tab, DEL, C1) and bidirectional overrides, which a skill's
 * text could use to clear the screen, retitle the terminal or reorder what the user reads.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** Text from a skill made safe for a terminal: each control character shown escaped (`\x1b`, `\u202e`). */
export function termSafe(text: string): string {
  return text.replace(UNSAFE, (c) => {
    const n = c.charCodeAt(0);
    return n <= 0xff ? `\\x${n.toString(16).padStart(2, '0')}` : `\\u${n.toString(16).padStart(4, '0')}`;
  });
}

/** Every string inside a value passed through `termSafe` (for text output; JSON output stays exact). */
export function termSafeDeep<T>(value: T): T {
  if (typeof value === 'string') return termSafe(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => termSafeDeep(v)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [termSafe(k), termSafeDeep(v)])) as T;
  }
  return value;
}

/** argv as one POSIX shell line a person can copy (a word with spaces or quotes in single quotes). */
export function shellLine(argv: readonly string[]): string {
  return argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

export function paint(enabled: boolean, colour: Colour, text: string): string {
  return enabled ? `\u001b[${codes[colour]}m${text}\u001b[0m` : text;
}

/** `file:line:col  severity  code  message` then an indented fix. */
export function formatDiagnostic(raw: Diagnostic, color: boolean): string {
  const d = termSafeDeep(raw);
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

/** Compact JSON given as pieces of its text (see `CliIO.outPieces`). */
export function printJsonPieces(io: Pick<CliIO, 'out' | 'outPieces'>, pieces: readonly OutPiece[]): void {
  if (io.outPieces) return io.outPieces(pieces);
  const bytes: Buffer[] = [];
  pieceChunks(pieces, (chunk) => bytes.push(Buffer.from(chunk)));
  io.out(Buffer.concat(bytes).toString('utf8'));
}

/** The bytes of `pieces` in order, through one reused buffer: each chunk is valid only during its call. */
export function pieceChunks(pieces: readonly OutPiece[], each: (chunk: Uint8Array) => void): void {
  const out = new ChunkWriter(each);
  for (const p of pieces) {
    if (typeof p === 'string') out.text(p);
    else if (p instanceof Uint8Array) out.bytes(p);
    else p.chunks((b) => out.bytes(b));
  }
  out.flush();
}
