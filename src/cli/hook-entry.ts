import fs from 'node:fs';
import { isGuardKind, type GuardKind } from '../agents/lean.js';
import { runHook } from './hook.js';
import { recordHook } from '../usage/index.js';
import { runLean, useCliValidationMemo } from './lean.js';
import { STDIN_HANDOFF, type CliIO } from './types.js';

// The front door of `skilldock policy check-write --hook` (bundled alone as CommonJS, dist/hook.cjs,
// picked by bin/skilldock.js, which compiles it with its V8 code cache): an agent runs it before
// every file write and shell command, so it starts with only the hook's code, no ES-module loader,
// no command table, no stream for stdout. It answers on the lean engine (src/cli/lean.ts) or not at
// all: anything else (unusual arguments, a file that needs its schema, an error to word) goes to
// the full CLI, which is handed the stdin already read and answers as it always does.

class NotLean extends Error {}

/**
 * The arguments this door answers itself (`policy check-write --hook [--conversation ID] [--format
 * KIND]`, each option once), or null. By hand: node:util's parseArgs costs more to load than the
 * rest of this start.
 */
function hookArgs(argv: readonly string[]): { conversation: string | undefined; kind: GuardKind } | null {
  const positionals: string[] = [];
  const values = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positionals.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq === -1 ? undefined : eq);
    if (values.has(name)) return null;
    if (name === 'hook' && eq === -1) values.set(name, true);
    else if (name === 'conversation' || name === 'format') {
      const v = eq === -1 ? argv[++i] : a.slice(eq + 1);
      if (v === undefined || (eq === -1 && v.startsWith('-'))) return null;
      values.set(name, v);
    } else return null;
  }
  if (positionals.length !== 2 || positionals[0] !== 'policy' || positionals[1] !== 'check-write' || !values.has('hook')) return null;
  const kind = (values.get('format') as string | undefined) ?? 'claude-pretooluse';
  return isGuardKind(kind) ? { conversation: values.get('conversation') as string | undefined, kind } : null;
}

/** The exit status, or null when the full CLI must answer. */
async function answer(args: { conversation: string | undefined; kind: GuardKind }, stdin: string): Promise<number | null> {
  useCliValidationMemo();
  // Said only once the answer is known to be this door's.
  const said: Array<[fd: number, text: string]> = [];
  const line = (fd: number) => (t: string) => said.push([fd, t.endsWith('\n') ? t : `${t}\n`]);
  const io: Pick<CliIO, 'out' | 'err' | 'engine'> = {
    out: line(1),
    err: line(2),
    async engine(fn) {
      const lean = await runLean(fn);
      if (!lean.ok) throw new NotLean();
      // Which door answered, for tests and for anyone timing a start.
      if (process.env.SKILLDOCK_TRACE_LEAN) io.err('skilldock: lean start (hook door)');
      return lean.value;
    },
  };
  let code: number;
  try {
    code = await runHook(io, stdin, args.conversation, args.kind);
  } catch {
    return null; // NotLean, or an error the full CLI words
  }
  for (const [fd, t] of said) fs.writeSync(fd, t);
  return code;
}

/**
 * Answers the hook call in `argv` and returns true, or returns false having written nothing: the
 * caller then runs the full CLI, which finds the stdin read here (STDIN_HANDOFF).
 */
export async function hookDoor(argv: readonly string[]): Promise<boolean> {
  const args = hookArgs(argv);
  if (!args) return false;
  const stdin = fs.readFileSync(0, 'utf8');
  const code = await answer(args, stdin);
  if (code !== null) {
    process.exitCode = code;
    return true;
  }
  (globalThis as Record<symbol, unknown>)[STDIN_HANDOFF] = stdin;
  return false;
}

/**
 * `skilldock usage hook --agent ID` (src/usage/hook.ts), the usage ledger's hook: it runs before
 * every skill load and file read of a launched conversation, so it starts here too. It needs no
 * engine, only SKILLDOCK_HOME, which the launch's hook command always sets; without it, or with
 * other arguments, the full CLI answers. Prints nothing.
 */
export function usageDoor(argv: readonly string[]): boolean {
  const home = process.env.SKILLDOCK_HOME;
  if (argv.length !== 4 || argv[0] !== 'usage' || argv[1] !== 'hook' || argv[2] !== '--agent' || !home) return false;
  const agent = argv[3]!;
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(agent)) return false;
  recordHook(home, agent, fs.readFileSync(0, 'utf8'));
  if (process.env.SKILLDOCK_TRACE_LEAN) fs.writeSync(2, 'skilldock: lean start (usage hook door)\n');
  return true;
}
