#!/usr/bin/env node
// The `skilldock` command: runs the bundled CLI (built by `npm install` via `prepare`).
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

// node:fs by `require`: importing it builds its ESM facade, which loads all of node:stream (a few
// ms of a start that never streams).
const { existsSync } = createRequire(import.meta.url)('node:fs');
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// An agent's pre-tool hook runs before each of its writes: its own small bundle starts faster
// (it hands anything it does not answer itself to cli.mjs).
const [cmd, action, ...rest] = process.argv.slice(2);
const hook = cmd === 'policy' && action === 'check-write' && rest.includes('--hook');
const bundle = path.join(root, 'dist', hook && existsSync(path.join(root, 'dist', 'hook.mjs')) ? 'hook.mjs' : 'cli.mjs');
if (!existsSync(bundle)) {
  process.stderr.write('skilldock: not built yet; run `npm run build:engine` in ' + root + '\n');
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
