import { runCli } from './main.js';
import { STDIN_HANDOFF } from './types.js';

// `skilldock list --json | head`: the reader left, which is not an error of ours. Stop quietly
// instead of dying on an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

// Standard input the hook's front door already read, when it handed the call over.
const handed = (globalThis as Record<symbol, unknown>)[STDIN_HANDOFF];
runCli(process.argv.slice(2), typeof handed === 'string' ? { stdin: handed } : {}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`skilldock: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
