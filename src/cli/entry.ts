import { runCli } from './main.js';

// `skilldock list --json | head`: the reader left, which is not an error of ours. Stop quietly
// instead of dying on an unhandled EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`skilldock: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
