import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { SkillDockEvent } from '../contract/index.js';
import { waitFor } from '../../test/support/wait.js';
import { LineLimit } from './line-limit.js';
import { lazyEngine } from './lazy-engine.js';
import { serveStdio } from './stdio.js';
import type { McpEngine } from './engine.js';

// The stdio transport's input: whole lines of at most the limit reach the SDK, a longer one is
// dropped as it streams (never held) and answered with a JSON-RPC error; and the engine behind
// a stdio server is loaded only by the first request that needs it.

function cut(max: number, chunks: Array<string | Buffer>): { lines: string[]; drops: number[] } {
  const lines: string[] = [];
  const drops: number[] = [];
  const t = new LineLimit(max, (n) => drops.push(n));
  t.on('data', (b: Buffer) => lines.push(b.toString()));
  for (const c of chunks) t.write(typeof c === 'string' ? Buffer.from(c) : c);
  t.end();
  return { lines, drops };
}

describe('LineLimit', () => {
  it('passes whole lines, joined across chunks and split within one', () => {
    expect(cut(100, ['{"a":', '1}\n{"b"', ':2}\n{"c":3}\n'])).toEqual({ lines: ['{"a":1}\n', '{"b":2}\n', '{"c":3}\n'], drops: [] });
  });

  it('takes a line of exactly the limit (newline included) and drops one byte more', () => {
    expect(cut(5, ['abcd\nabcde\nok\n'])).toEqual({ lines: ['abcd\n', 'ok\n'], drops: [6] });
  });

  it('drops a long line as it streams, counts all of it, and goes on after its newline', () => {
    const big = Buffer.alloc(1000, 'x');
    const { lines, drops } = cut(64, ['{"first":1}\n', 'yy', big, big, big, 'zz\n{"next":2}\n', 'tail-without-newline']);
    expect(lines).toEqual(['{"first":1}\n', '{"next":2}\n']);
    expect(drops).toEqual([2 + 3000 + 3]);
  });

  it('reports a long line that the input ends inside', () => {
    expect(cut(4, ['ok\n', 'toolong'])).toEqual({ lines: ['ok\n'], drops: [7] });
  });
});

/** An engine that counts its loads and serves nothing (enough for the handshake and tools). */
function countingEngine(): { engine: McpEngine; loads: () => number } {
  let loads = 0;
  const inner: McpEngine = {
    api: {
      mcpServedSkills: async () => ({ skills: [], hidden: [], unapproved: 'withhold-scripts', generation: 1 }),
      mcpReadFile: async () => {
        throw new Error('no files');
      },
    },
    on: (_fn: (e: SkillDockEvent) => void) => () => undefined,
  };
  return {
    engine: lazyEngine(async () => {
      loads++;
      return inner;
    }),
    loads: () => loads,
  };
}

describe('serveStdio', () => {
  it('answers an over-long message with -32600 and a malformed one with its error, says so, and answers the next one', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const said: string[] = [];
    const got: Array<Record<string, unknown>> = [];
    let buf = '';
    stdout.on('data', (b: Buffer) => {
      buf += b.toString();
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        got.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        buf = buf.slice(nl + 1);
      }
    });
    const { engine, loads } = countingEngine();
    const session = await serveStdio(engine, {}, { stdin, stdout, err: (l) => said.push(l), maxMessageBytes: 4096 });
    const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`);
    await waitFor(() => got.some((m) => m.id === 2), { timeoutMs: 20_000, what: 'the tools/list answer' });
    // The handshake and the tools need no engine.
    expect(loads()).toBe(0);

    stdin.write(`{"jsonrpc":"2.0","id":3,"method":"ping","params":{"pad":"${'p'.repeat(10_000)}"}}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' })}\n`);
    await waitFor(() => got.some((m) => m.id === 4), { timeoutMs: 20_000, what: 'the ping after the long line' });
    const refusal = got.find((m) => (m.error as { code?: number } | undefined)?.code === -32600);
    expect(refusal, JSON.stringify(got)).toBeDefined();
    expect(refusal).not.toHaveProperty('id');
    expect((refusal!.error as { message: string }).message).toMatch(/over the limit of 4096/);
    expect(got.some((m) => m.id === 3)).toBe(false);
    expect(said.join('\n')).toMatch(/refused a message of 100\d\d bytes/);

    // Not JSON, and JSON that is no JSON-RPC message: each answered, the server goes on.
    stdin.write('not json\n{"hello":"world"}\n');
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'ping' })}\n`);
    await waitFor(() => got.some((m) => m.id === 6), { timeoutMs: 20_000, what: 'the ping after the malformed lines' });
    const codes = got.filter((m) => !('id' in m) && m.error).map((m) => (m.error as { code: number }).code);
    expect(codes).toEqual([-32600, -32700, -32600]);

    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'skills/list' })}\n`);
    await waitFor(() => got.some((m) => m.id === 5), { timeoutMs: 20_000, what: 'the skills/list answer' });
    expect(loads()).toBe(1);
    stdin.end();
    await session.closed;
    await session.close();
  }, 60_000);
});
