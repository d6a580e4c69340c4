import type { Diagnostic } from '../contract/index.js';
import { ChunkWriter } from '../chunk-writer.js';
import type { CliIO, OutPiece } from './types.js';

const codes = { red: 31, yellow: 33, cyan: 36, dim: 2, bold: 1, green: 32 } as const;
export type Colour = keyof typeof codes;

// The CLI's one escaping function for what it prints, applied at its edge (src/cli/main.ts): every
// string the engine returns reaches a command through `termSafeDeep` when the output is text, and
// every write to stdout or stderr goes through `guardOutput`, so no command (a new one included)
// can print a raw control character from a skill, a path, a repository or the user.

/**
 * Control characters (C0, DEL, C1), line and paragraph separators and bidirectional overrides and
 * isolates: what a name could use to clear the screen, retitle the terminal, forge a line of
 * output or reorder what the user reads.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// The same but line feed and tab: for text that is many lines (a skill's body, an assistant's rules).
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** One character as its escape: `\n`, `\r`, `\t`, else `\uXXXX` (valid in JSON too). */
function escapeChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Text made safe for a terminal: each control character shown escaped (`\u001b`, `\u202e`, `\n`).
 * `keepLines`: line feeds and tabs stay (a body of many lines); otherwise they are escaped too, so a
 * name cannot start a line of its own.
 */
export function termEscape(text: string, keepLines = false): string {
  const re = keepLines ? UNSAFE_IN_LINES : UNSAFE;
  re.lastIndex = 0;
  if (!re.test(text)) return text;
  re.lastIndex = 0;
  return text.replace(re, escapeChar);
}

/** `termEscape` keeping line feeds and tabs. */
export function termSafe(text: string): string {
  return termEscape(text, true);
}

/** Fields whose text is many lines by nature: their line feeds stay, every other control is escaped. */
const MULTI_LINE_KEYS = new Set(['body', 'rules', 'description', 'text', 'content', 'prompt', 'diff']);

/**
 * Every string inside a value passed through `termEscape` (keys too): for text output (JSON output
 * stays exact). Line feeds stay only in the fields of MULTI_LINE_KEYS.
 */
export function termSafeDeep<T>(value: T, keepLines = false): T {
  if (typeof value === 'string') return termEscape(value, keepLines) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => termSafeDeep(v, keepLines)) as T;
  if (value && typeof value === 'object' && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [termEscape(k), termSafeDeep(v, MULTI_LINE_KEYS.has(k))]),
    ) as T;
  }
  return value;
}

// The CLI's own colours (`paint`): the only escape sequence that may reach a terminal, and only
// when colour is on.
// eslint-disable-next-line no-control-regex
const OWN_SGR_OR_UNSAFE = /\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * What every write to stdout and stderr passes through: each control character but line feed and
 * tab escaped (as JSON escapes, so JSON stays valid and means the same), except the CLI's own
 * colour codes when `colour` is on. The backstop behind `termSafeDeep`: it holds for a string that
 * reached a command some other way (its arguments, a file it read).
 */
export function guardOutput(text: string, colour: boolean): string {
  OWN_SGR_OR_UNSAFE.lastIndex = 0;
  if (!OWN_SGR_OR_UNSAFE.test(text)) return text;
  OWN_SGR_OR_UNSAFE.lastIndex = 0;
  return text.replace(OWN_SGR_OR_UNSAFE, (m) => (m.length > 1 ? (colour ? m : escapeChar(m[0]!) + m.slice(1)) : escapeChar(m)));
}

/**
 * `guardOutput` for bytes of UTF-8 JSON (spans of the catalog index): JSON has escaped C0 already,
 * so only DEL, C1 (C2 80-9F), the separators and the bidi controls (E2 80 A8-AE, E2 81 A6-A9) are
 * looked for, with indexOf (no per-byte loop in JavaScript); the bytes come back untouched when
 * there are none.
 */
export function guardJsonBytes(b: Uint8Array): Uint8Array {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  let hit = buf.indexOf(0x7f) >= 0;
  for (let i = buf.indexOf(0xc2); !hit && i >= 0 && i + 1 < buf.length; i = buf.indexOf(0xc2, i + 1)) {
    const n = buf[i + 1]!;
    if (n >= 0x80 && n <= 0x9f) hit = true;
  }
  for (let i = buf.indexOf(0xe2); !hit && i >= 0 && i + 2 < buf.length; i = buf.indexOf(0xe2, i + 1)) {
    const n = buf[i + 1]!;
    const m = buf[i + 2]!;
    if ((n === 0x80 && m >= 0xa8 && m <= 0xae) || (n === 0x81 && m >= 0xa6 && m <= 0xa9)) hit = true;
  }
  return hit ? Buffer.from(guardOutput(buf.toString('utf8'), false)) : b;
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
  // Every piece guarded (see guardOutput): the catalog's own bytes too, which name skills and paths.
  for (const p of pieces) {
    if (typeof p === 'string') out.text(guardOutput(p, false));
    else if (p instanceof Uint8Array) out.bytes(guardJsonBytes(p));
    else p.chunks((b) => out.bytes(guardJsonBytes(b)));
  }
  out.flush();
}
