// `npm run bench`: runs every benchmark module in turn. Each module exports a default async
// function ({ log, root }) that measures its own floor or peer in the same run and logs lines like
//   `catalog cold scan+lint 10000 skills: 1.7x floor (floor 812 ms, ours 1380 ms) target <= 2.0`.
// Benchmarks are never timed tests: they print, they don't fail the build.
import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const order = [
  'catalog.mjs',
  'import.mjs',
  'launch.mjs',
  'ui.mjs',
  'editor.mjs',
  'cli-start.mjs',
  'sources.mjs',
  'mcp.mjs',
  'discover.mjs',
  'deploy.mjs',
  'sync.mjs',
  'usage.mjs',
];
const only = process.argv.slice(2);
const lines = [];
const log = (line) => {
  lines.push(line);
  console.log(line);
};

for (const file of order) {
  const name = file.replace(/\.mjs$/, '');
  if (only.length && !only.includes(name)) continue;
  const full = path.join(root, 'bench', file);
  if (!fs.existsSync(full)) {
    log(`${name}: (no benchmark module yet)`);
    continue;
  }
  console.log(`\n--- ${name}`);
  try {
    const mod = await import(pathToFileURL(full).href);
    await mod.default({ log, root });
  } catch (err) {
    log(`${name}: FAILED ${err?.stack ?? err}`);
  }
}

console.log('\n=== summary');
for (const line of lines) console.log(line);
