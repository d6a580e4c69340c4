import type { SkillDockService } from '../service.js';

export interface CliIO {
  out(text: string): void;
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
  /** The engine, created on first use with SKILLDOCK_HOME honoured. */
  service(): SkillDockService;
}

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  /** Returns the exit status: 0 ok, 1 findings or failure, 2 usage. */
  run(argv: string[], io: CliIO): Promise<number>;
}

/** Thrown for bad usage; the dispatcher prints the message and the usage and exits 2. */
export class UsageError extends Error {}
