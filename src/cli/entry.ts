import { runCli } from './main.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`skilldock: ${err?.message ?? err}\n`);
    process.exitCode = 1;
  },
);
