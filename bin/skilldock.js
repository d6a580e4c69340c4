#!/usr/bin/env node
// The `skilldock` command: runs the bundled CLI (built by `npm install` via `prepare`).
// CommonJS (bin/package.json): a start that a door answers loads no ES-module loader at all.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const { pathToFileURL } = require('node:url');

const dist = path.join(__dirname, '..', 'dist');
const built = (file) => fs.existsSync(path.join(dist, file));
const full = () => import(pathToFileURL(path.join(dist, 'cli.mjs')).href);

/**
 * A door's CommonJS bundle, compiled with the V8 code cache the build made for it (`<file>.v8`,
 * scripts/door-cache.cjs): the start then skips compiling ~120 KB of code. The cache is used only
 * when made by the same build (its first line is the bundle's first line, which names the build)
 * and V8 accepts it (same V8, same flags); otherwise the bundle compiles as usual. The bundle must
 * not use `import()` (scripts/build-engine.mjs checks): a script compiled here has no loader for it.
 */
function loadDoor(file) {
  const source = fs.readFileSync(file, 'utf8');
  let cachedData;
  try {
    const cache = fs.readFileSync(`${file}.v8`);
    const nl = cache.indexOf(10);
    if (nl > 0 && source.startsWith(cache.toString('latin1', 0, nl + 1))) cachedData = cache.subarray(nl + 1);
  } catch {
    // no cache: compile as usual
  }
  const script = new (require('node:vm').Script)(Module.wrap(source), { filename: file, cachedData });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, script };
}

function main() {
  if (!built('cli.mjs')) {
    process.stderr.write(`skilldock: not built yet; run \`npm run build:engine\` in ${path.dirname(__dirname)}\n`);
    process.exit(1);
  }
  const argv = process.argv.slice(2);
  const [cmd, action, ...rest] = argv;
  // Three commands have doors of their own, each a small bundle that answers the common case and
  // hands the rest to cli.mjs. An agent's pre-tool hook runs before each of its writes
  // (dist/hook.cjs); `list --json` is how programs read the catalog (dist/list.cjs); an MCP host
  // waits for `skilldock mcp` to answer its handshake (dist/mcp.cjs), which then loads the engine
  // (dist/engine.mjs) by the import() given here: a door compiled as a script has none.
  const hook = cmd === 'policy' && action === 'check-write' && rest.includes('--hook');
  // The usage ledger's hook (before each skill load and file read) shares the hook's door.
  const usage = cmd === 'usage' && action === 'hook';
  const door = hook || usage ? 'hook' : cmd === 'list' && argv.includes('--json') ? 'list' : cmd === 'mcp' ? 'mcp' : null;
  if (door && built(`${door}.cjs`)) {
    const { exports } = loadDoor(path.join(dist, `${door}.cjs`));
    if (usage) {
      if (!exports.usageDoor(argv)) full();
      return;
    }
    const loadEngine = () => import(pathToFileURL(path.join(dist, 'engine.mjs')).href);
    const run = {
      hook: () => exports.hookDoor(argv),
      list: () => exports.listDoor(argv),
      mcp: () => exports.mcpDoor(argv, { loadEngine }),
    };
    run[door]().then(
      (answered) => answered || full(),
      (err) => {
        // Only a failure while writing the answer gets here (the door hands anything else over).
        process.stderr.write(`skilldock ${cmd}: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      },
    );
  } else {
    full();
  }
}

if (require.main === module) main();
module.exports = { loadDoor };
