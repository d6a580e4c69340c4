#!/usr/bin/env node
// The `skilldock` command: runs the bundled CLI (built by `npm install` via `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bundle = path.join(root, 'dist', 'cli.mjs');
if (!existsSync(bundle)) {
  process.stderr.write('skilldock: not built yet; run `npm run build:engine` in ' + root + '\n');
  process.exit(1);
}
await import(pathToFileURL(bundle).href);
