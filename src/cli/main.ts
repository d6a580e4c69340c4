import fs from 'node:fs';
import type { SkillDockService } from '../service.js';
import type { ServiceContext } from '../service-context.js';
import type { SkillDockEvent } from '../contract/index.js';
import { commands } from './commands/index.js';
import { guardOutput, pieceChunks, termSafeDeep } from './format.js';
import { corruptWarning, rolledBackWarning } from './engine-events.js';
import { UsageError, type CliCommand, type CliIO, type OutPiece } from './types.js';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'skilldock: manage Agent Skills for coding-agent CLIs',
    '',
    'Usage: skilldock <command> [options]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Run `skilldock <command> --help` for its options. SKILLDOCK_HOME overrides ~/.skilldock.',
  ].join('\n');
}

let stdoutIsFile: boolean | null = null;

function toFile(): boolean {
  if (stdoutIsFile === null) {
    try {
      const st = fs.fstatSync(1);
      stdoutIsFile = !process.stdout.isTTY && (st.isFile() || st.isCharacterDevice());
    } catch {
      stdoutIsFile = false;
    }
  }
  return stdoutIsFile;
}
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * Standard output. A file or /dev/null (the stream Node then uses writes synchronously anyway) is
 * written straight from the string or bytes, skipping the Buffer the stream would build: for
 * megabytes of JSON that copy costs more than the write. Pipes and terminals go through the stream.
 */
function writeOut(t: string | Uint8Array): void {
  if (toFile() && typeof t !== 'string') {
    let off = 0;
    try {
      while (off < t.length) off += fs.writeSync(1, t, off);
      return;
    } catch {
      stdoutIsFile = false; // not writable this way after all: the stream reports its own errors
      t = Buffer.from(t.subarray(off)); // the stream keeps it: a copy, the caller may use its buffer again
    }
  }
  if (stdoutIsFile && typeof t === 'string' && t.length > 1 << 16) {
    let n: number;
    let ascii = false;
    try {
      // Plain ASCII (JSON output nearly always is) written as latin1 is the same bytes, copied
      // without the per-character UTF-8 encoder.
      ascii = !NON_ASCII.test(t);
      n = fs.writeSync(1, t, null, ascii ? 'latin1' : 'utf8');
    } catch {
      n = -1;
      stdoutIsFile = false;
    }
    if (n >= 0) {
      // ASCII written as latin1 is one byte a character: no second pass to count UTF-8 bytes.
      if (n < (ascii ? t.length : Buffer.byteLength(t))) process.stdout.write(Buffer.from(t).subarray(n));
      return;
    }
  }
  process.stdout.write(t);
}

/**
 * Pieces of text and bytes, written in order through one reused buffer (spans of the catalog index
 * pass straight through). A file or /dev/null takes each chunk at once; a stream keeps what it is
 * given, so it gets a copy.
 */
function writePieces(pieces: readonly OutPiece[]): void {
  pieceChunks(pieces, (chunk) => (toFile() ? writeOut(chunk) : process.stdout.write(Buffer.from(chunk))));
}

/**
 * The CLI's edge, applied to every command (tests' own `out`/`err`/`service` included): each write
 * goes through guardOutput, and for text output every value the engine returns goes through
 * termSafeDeep before the command sees it. So a command, a new one too, formats names, paths and
 * messages as it likes and still cannot print a raw control character or a line a name started.
 * JSON output gets the engine's values exact (JSON escapes them) and only the write guard.
 */
function guardEdge(io: CliIO, json: boolean): void {
  const { out, err, outPieces, service, engine } = io;
  io.out = (t) => out.call(io, guardOutput(t, io.color));
  io.err = (t) => err.call(io, guardOutput(t, io.color));
  if (outPieces) io.outPieces = (pieces) => outPieces.call(io, pieces); // pieceChunks guards each piece
  if (json) return;
  let api: SkillDockService['api'] | undefined;
  let proxied: SkillDockService | undefined;
  io.service = () => {
    const s = service.call(io);
    if (proxied && api) return proxied;
    const inner = s.api;
    api = new Proxy(inner, {
      get(target, prop, receiver) {
        const f = Reflect.get(target, prop, receiver) as unknown;
        if (typeof f !== 'function') return f;
        return async (...args: unknown[]) => termSafeDeep(await (f as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      },
    });
    proxied = new Proxy(s, {
      get(target, prop) {
        if (prop === 'api') return api;
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    return proxied;
  };
  io.engine = async <T>(fn: (ctx: ServiceContext) => Promise<T>): Promise<T> => termSafeDeep(await engine(fn));
}

/** The engine, loaded when a command runs (help and usage never pay for it). */
let createService: typeof import('../service.js').createService | undefined;

export async function runCli(argv: string[], partial: Partial<CliIO> = {}): Promise<number> {
  let service: SkillDockService | undefined;
  const corrupt: Array<Extract<SkillDockEvent, { type: 'store-corrupt' }>> = [];
  let command: CliCommand | undefined;
  const makeService = () => {
    const s = createService!();
    s.on((e) => {
      if (e.type === 'store-corrupt') corrupt.push(e);
      if (e.type === 'operation-rolled-back') io.err(rolledBackWarning(e));
    });
    return s;
  };
  const io: CliIO = {
    out: (t) => {
      // Two writes rather than `t + '\n'`: a catalog's JSON runs to megabytes, and the joined
      // string would be one more copy of it.
      writeOut(t);
      if (!t.endsWith('\n')) writeOut('\n');
    },
    // Only where `out` is ours: a caller's own `out` (tests) gets the joined text instead.
    ...(partial.out
      ? {}
      : {
          outPieces: (pieces) => {
            writePieces(pieces);
            writeOut('\n');
          },
        }),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    prettyJson: Boolean(process.stdout.isTTY),
    env: process.env,
    cwd: process.cwd(),
    service: () => (service ??= makeService()),
    engine: async (fn) => {
      if (!service && !partial.service && command?.lean) {
        const lean = await (await import('./lean.js')).runLean(fn);
        // Which path answered, for tests and for anyone timing a start.
        if (io.env.SKILLDOCK_TRACE_LEAN) io.err(`skilldock: ${lean.ok ? 'lean start' : 'full engine (a file needed its schema)'}`);
        if (lean.ok) return lean.value;
      }
      createService ??= (await import('../service.js')).createService;
      return fn(io.service().ctx);
    },
    ...partial,
  };
  const [name, ...rest] = argv;
  // Engine values are escaped for a terminal only where stdout is text for a person: not with
  // --json, and not where it is a protocol (`mcp`: a skill's CRLF file must reach the host as is).
  guardEdge(io, rest.includes('--json') || commands.find((c) => c.name === name)?.protocolOut === true);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    io.out('0.1.0');
    return 0;
  }
  command = commands.find((c) => c.name === name);
  if (!command) {
    io.err(`skilldock: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  const mod = await command.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`Usage: ${mod.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    if (!partial.service) {
      // Memos of validated files (src/store/lazy-schema.ts): what lets a lean command skip zod.
      (await import('./lean.js')).useCliValidationMemo(io.env);
      if (!command.lean) createService ??= (await import('../service.js')).createService;
    }
    const code = await mod.run(rest, io);
    if (!corrupt.length) return code;
    // Never silent: say which file, what was recovered from where, and where the damaged copy went.
    const json = rest.includes('--json');
    for (const e of corrupt) {
      io.err(
        json
          ? JSON.stringify({ warning: 'store-corrupt', file: e.file, reason: e.reason, recoveredFrom: e.recoveredFrom, movedTo: e.movedTo })
          : corruptWarning(e),
      );
    }
    return json ? code : Math.max(code, 1);
  } catch (err) {
    if (
      err instanceof UsageError ||
      (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      (err as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ||
      (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL'
    ) {
      io.err(`skilldock ${name}: ${(err as Error).message}\nUsage: ${mod.usage}`);
      return 2;
    }
    if (err instanceof Error && err.name === 'SkillDockError') {
      io.err(`skilldock ${name}: ${err.message}`);
      return (err as Error & { code?: string }).code === 'bad-request' ? 2 : 1;
    }
    io.err(`skilldock ${name}: ${(err as Error)?.message ?? String(err)}`);
    return 1;
  } finally {
    if (service) await service.close();
  }
}
