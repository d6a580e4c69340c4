import type { McpScope } from '../contract/index.js';
import type { SkillDockService } from '../service.js';
import { runMcpStdio, scopeOf } from './mcp-stdio.js';

// The front door of `skilldock mcp` on stdio (bundled alone as CommonJS, dist/mcp.cjs, picked by
// bin/skilldock.js, which compiles it with its V8 code cache). A host starts the server and waits
// for its answer to `initialize` before it goes on: this door holds the SDK's server and stdio
// transport and SkillDock's session code only (not ajv, see scripts/build-engine.mjs), answers the
// handshake, and loads the engine (dist/engine.mjs, the full CLI's chunks) only then. Anything
// else (`--http`, `--help`, arguments to word an error about) goes to the full CLI.

type EngineModule = { openCliService(err: (line: string) => void): SkillDockService };

export interface McpDoorIo {
  /** The engine's module (bin/skilldock.js imports dist/engine.mjs: this script cannot import()). */
  loadEngine(): Promise<EngineModule>;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

/**
 * The scope of `mcp [--assistant NAME | --skill NAME[,NAME...]...]`, or null for anything else. By
 * hand, like the hook's door: node:util's parseArgs costs more to load than it parses here. Where
 * node:util would refuse (an option's value missing or like an option), the full CLI does.
 */
function stdioScope(argv: readonly string[]): McpScope | null {
  if (argv[0] !== 'mcp') return null;
  let assistant: string | undefined;
  const skill: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = eq === -1 ? a : a.slice(0, eq);
    if (name !== '--skill' && !(name === '--assistant' && assistant === undefined)) return null;
    const v = eq === -1 ? argv[++i] : a.slice(eq + 1);
    if (v === undefined || (eq === -1 && v.startsWith('-'))) return null;
    if (name === '--skill') skill.push(v);
    else assistant = v;
  }
  try {
    return scopeOf({ assistant, skill });
  } catch {
    return null;
  }
}

/** Serves and resolves true when the server ended; false when the full CLI must answer. */
export async function mcpDoor(argv: readonly string[], io: McpDoorIo): Promise<boolean> {
  const scope = stdioScope(argv);
  if (!scope) return false;
  const stdout = io.stdout ?? process.stdout;
  // The host went away while an answer was on its way: nothing to tell anyone (as the full CLI).
  for (const stream of [stdout, process.stderr] as NodeJS.WritableStream[]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  const err = (line: string) => void process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
  // Which door answered and when the engine came, for tests and for anyone timing a start.
  const trace = process.env.SKILLDOCK_TRACE_LEAN ? err : () => undefined;
  trace('skilldock: mcp door');
  let service: Promise<SkillDockService> | null = null;
  const open = () =>
    (service ??= io.loadEngine().then((m) => {
      trace('skilldock: engine loaded (mcp door)');
      return m.openCliService(err);
    }));
  const loaded = await runMcpStdio(scope, open, { stdin: io.stdin ?? process.stdin, stdout, err });
  // A load that failed was already answered as an error to each request that needed it.
  if (loaded)
    await open().then(
      (s) => s.close(),
      () => undefined,
    );
  return true;
}
