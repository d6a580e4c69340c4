// `skilldock mcp` (issue 27): `skills/list` over 1,000 skills against the catalog's own warm listing
// of the same skills, both as their front door puts them on the wire (the HTTP door's JSON of
// `listCatalog`; the SDK session's JSON-RPC answer, serialised as the stdio transport does), and
// the first answer after a cold start of `skilldock mcp` (spawn to the `initialize` response on
// stdout) against `node -e 0`. Medians, measured in the same run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateSkills } from './generate-skills.mjs';
import { loadEngine, median, removeAtExit } from './engine.mjs';

const N = Number(process.env.BENCH_MCP_SKILLS ?? 1000);
const RUNS = Number(process.env.BENCH_MCP_RUNS ?? 9);

const INIT = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;

/** ms from spawn to the first line on stdout (the initialize answer); the child is then ended. */
function firstAnswer(cli, env) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(process.execPath, [cli, 'mcp'], { env, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (b) => {
      out += b.toString();
      if (out.includes('\n') && !child.killed) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        child.stdin.end();
        child.once('exit', () => resolve(ms));
      }
    });
    child.once('error', reject);
    child.stdin.write(INIT);
  });
}

function nodeE0(env) {
  const t0 = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', '0'], { env });
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export default async function bench({ log, root }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-bench-mcp-'));
  removeAtExit(tmp);
  const home = path.join(tmp, 'home');
  const userHome = path.join(tmp, 'user');
  fs.mkdirSync(userHome, { recursive: true });
  generateSkills(path.join(home, 'library'), N);

  const engine = await loadEngine(
    root,
    tmp,
    `export { createService } from './src/service.ts';
     export { McpSource, createSession } from './src/mcp/index.ts';
     export { Client } from '@modelcontextprotocol/sdk/client/index.js';
     export { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
     export { z } from 'zod';`,
  );
  const service = engine.createService({ paths: { home, userHome, resourcesDir: path.join(root, 'resources') } });
  const source = new engine.McpSource(service, {});
  const server = engine.createSession(source, 'bench');
  const [a, b] = engine.InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new engine.Client({ name: 'bench', version: '1' });
  await client.connect(b);
  const Loose = engine.z.object({}).passthrough();

  const catalogJson = async () => JSON.stringify(await service.call('listCatalog', {}));
  const skillsList = async () => {
    let cursor;
    let text = '';
    for (let i = 0; i < 100; i++) {
      const r = await client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, Loose);
      text += JSON.stringify({ jsonrpc: '2.0', id: i, result: r });
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return text;
  };
  // Warm both: the catalog scanned, every served file digested once.
  await catalogJson();
  const served = (await service.call('mcpServedSkills', {})).value.skills.length;
  await catalogJson();
  await skillsList();
  const cat = [];
  const mcp = [];
  for (let i = 0; i < RUNS * 2; i++) {
    let t = performance.now();
    await catalogJson();
    cat.push(performance.now() - t);
    t = performance.now();
    await skillsList();
    mcp.push(performance.now() - t);
  }
  const c = median(cat);
  const m = median(mcp);
  log(
    `mcp skills/list ${N} skills (${served} served): ${(m / c).toFixed(2)}x catalog warm listing (catalog ${c.toFixed(1)} ms, skills/list ${m.toFixed(1)} ms) target <= 1.5`,
  );
  await client.close();
  source.close();
  await service.close();

  const env = { ...process.env, SKILLDOCK_HOME: home, SKILLDOCK_USER_HOME: userHome, HOME: userHome, NO_COLOR: '1' };
  const cli = path.join(root, 'bin', 'skilldock.js');
  await firstAnswer(cli, env); // warm the file cache
  nodeE0(env);
  const nodes = [];
  const starts = [];
  for (let i = 0; i < RUNS; i++) {
    nodes.push(nodeE0(env));
    starts.push(await firstAnswer(cli, env));
  }
  const n0 = median(nodes);
  const s0 = median(starts);
  log(
    `mcp cold start to first answer: ${(s0 / n0).toFixed(2)}x node -e 0 (node ${n0.toFixed(1)} ms, skilldock mcp ${s0.toFixed(1)} ms) target <= 2.0`,
  );
}
