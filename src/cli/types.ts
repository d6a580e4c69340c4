import type { SkillDockService } from '../service.js';
import type { ServiceContext } from '../service-context.js';

/** A piece of output: text, bytes, or bytes handed over in chunks (each valid only during its call). */
export type OutPiece = string | Uint8Array | { chunks(each: (bytes: Uint8Array) => void): void };

export interface CliIO {
  out(text: string): void;
  /**
   * Write `pieces` one after the other, then a newline: what `out` does with their joined text,
   * without joining them (megabytes of JSON, much of it bytes copied from the catalog index).
   * Absent: `out` gets the joined text.
   */
  outPieces?(pieces: readonly OutPiece[]): void;
  err(text: string): void;
  /** Colour only on a TTY (and never with NO_COLOR). */
  color: boolean;
  /**
   * Indent JSON for a person reading a terminal; compact when piped or redirected, where a
   * program reads it (a 10,000-skill catalog is a third smaller and written much faster).
   */
  prettyJson?: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Standard input, when a front door read it already (the hook's fast start hands it over). */
  stdin?: string;
  /** The engine, created on first use with SKILLDOCK_HOME honoured. */
  service(): SkillDockService;
  /**
   * Run a read-only `fn` on the engine's context: for a `lean` command without loading the service
   * (src/cli/lean.ts) when it can answer that way, else on the service's context.
   */
  engine<T>(fn: (ctx: ServiceContext) => Promise<T>): Promise<T>;
}

/** An entry of the command table (src/cli/commands/index.ts): what `skilldock --help` needs, no code. */
export interface CliCommand {
  name: string;
  summary: string;
  /**
   * Starts without the service (no handler table, no contract schemas): the command reaches the
   * engine only through `io.engine`. For commands that must start close to bare Node.
   */
  lean?: boolean;
  /**
   * Standard output is a protocol (JSON-RPC), not text for a person: the engine's values reach the
   * command exact, as with --json (JSON escapes what a terminal must not see).
   */
  protocolOut?: boolean;
  /** The command's own module, imported when it runs or prints its usage: a start compiles no other command. */
  load(): Promise<CliCommandModule>;
}

/** A command's code, in its own file. */
export interface CliCommandModule {
  usage: string;
  /** Returns the exit status: 0 ok, 1 findings or failure, 2 usage. */
  run(argv: string[], io: CliIO): Promise<number>;
}

/** Where the hook's fast front door (src/cli/hook-entry.ts) leaves the stdin it read for the full CLI. */
export const STDIN_HANDOFF = Symbol.for('skilldock.cli.stdin');

/** Thrown for bad usage; the dispatcher prints the message and the usage and exits 2. */
export class UsageError extends Error {}
