// Makes the V8 code caches of the doors (dist/list.cjs.v8, dist/hook.cjs.v8, dist/mcp.cjs.v8, used
// by bin/skilldock.js loadDoor): runs each door once in a temporary SkillDock home (`list --json` of
// a small library; a hook call read from this script's stdin; an MCP handshake), so that the
// functions a start calls are compiled, then saves what V8 compiled. Run by scripts/build-engine.mjs
// right after it bundled the doors; writes only those files (and its own temporary folder).
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { loadDoor } = require('../bin/skilldock.js');

const root = path.join(__dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-door-cache-'));

/** Runs the door `file` once (`run` says whether it answered), then writes its code cache. */
async function cache(file, run) {
  const door = path.join(root, 'dist', file);
  fs.rmSync(`${door}.v8`, { force: true });
  const { exports, script } = loadDoor(door);
  if (!(await run(exports))) throw new Error(`dist/${file} did not answer`);
  const firstLine = fs.readFileSync(door, 'latin1').split('\n', 1)[0];
  fs.writeFileSync(`${door}.v8`, Buffer.concat([Buffer.from(`${firstLine}\n`, 'latin1'), script.createCachedData()]));
}

async function main() {
  const home = path.join(tmp, 'home');
  const user = path.join(tmp, 'user');
  fs.mkdirSync(user, { recursive: true });
  for (let i = 0; i < 3; i++) {
    const dir = path.join(home, 'library', `skill-${i}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: skill-${i}\ndescription: Skill ${i}.\n---\nBody.\n`);
  }
  Object.assign(process.env, { SKILLDOCK_HOME: home, SKILLDOCK_USER_HOME: user, HOME: user, USERPROFILE: user });
  // The racy-git margin of the index: skills written just now would be re-read at every start.
  const past = new Date(Date.now() - 60_000);
  for (let i = 0; i < 3; i++) {
    const dir = path.join(home, 'library', `skill-${i}`);
    fs.utimesSync(path.join(dir, 'SKILL.md'), past, past);
    fs.utimesSync(dir, past, past);
  }
  fs.utimesSync(path.join(home, 'library'), past, past);
  // The full CLI first: it validates the files the door reads from its memo, and writes the index.
  const first = spawnSync(process.execPath, [path.join(root, 'bin', 'skilldock.js'), 'list', '--json'], {
    env: process.env,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (first.status !== 0) throw new Error(`list --json failed: ${first.stderr}`);
  await cache('list.cjs', (exports) => exports.listDoor(['list', '--json']));
  await cache('hook.cjs', (exports) => exports.hookDoor(['policy', 'check-write', '--hook']));
  await cache('mcp.cjs', answerInitialize);
}

/**
 * `skilldock mcp` through its door, on streams of this script's: a host's `initialize`, its answer,
 * then the end of input (the server stops; the engine, which a start does not load, never is).
 */
async function answerInitialize(exports) {
  const { PassThrough } = require('node:stream');
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (b) => {
    out += b.toString();
    if (out.includes('\n')) stdin.end();
  });
  const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'door-cache', version: '1' } };
  stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })}\n`);
  const loadEngine = () => Promise.reject(new Error('the code cache is made without the engine'));
  const served = await exports.mcpDoor(['mcp'], { loadEngine, stdin, stdout });
  return served && /"serverInfo"/.test(out);
}

main()
  .catch((err) => {
    // No cache is no harm: the door compiles as usual.
    process.exitCode = 1;
    process.stderr.write(`door-cache: no code cache: ${err instanceof Error ? err.message : String(err)}\n`);
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
