import { describe, expect, it } from 'vitest';
import { MAX_WAIT_MS, poll, waitFor } from './wait.js';

describe('test support: waiting', () => {
  it('returns as soon as the condition holds, sync or async', async () => {
    let n = 0;
    const started = Date.now();
    await waitFor(() => ++n >= 3, { intervalMs: 5 });
    expect(n).toBe(3);
    await waitFor(async () => true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('fails after the timeout, naming what it waited for', async () => {
    const started = Date.now();
    await expect(waitFor(() => false, { timeoutMs: 120, intervalMs: 10, what: 'the moon' })).rejects.toThrow(
      'timed out after 120 ms waiting for the moon',
    );
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(110);
    expect(took).toBeLessThan(2000);
    const seen = ['a', 'b'];
    await expect(waitFor(() => false, { timeoutMs: 30, what: () => `events ${seen.join(',')}` })).rejects.toThrow('events a,b');
  });

  it('looks a bounded number of times, and refuses an unbounded wait', async () => {
    let looks = 0;
    expect(await poll(() => (looks++, false), { timeoutMs: 100, intervalMs: 20 })).toBe(false);
    expect(looks).toBeGreaterThanOrEqual(2);
    expect(looks).toBeLessThanOrEqual(100 / 20 + 2);
    for (const timeoutMs of [0, -1, Infinity, Number.NaN, MAX_WAIT_MS + 1]) {
      await expect(poll(() => true, { timeoutMs })).rejects.toThrow(RangeError);
    }
  });
});

describe('waiting in tests goes through test/support/wait.ts', () => {
  it('no test defines its own poll loop or wait helper', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(__dirname, '../..');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
        const rel = `${dir}/${e.name}`;
        if (e.name === 'node_modules' || e.name.startsWith('.') || rel === 'test/support') continue;
        if (e.isDirectory()) walk(rel);
        else if (/\.test\.tsx?$|(^|\/)(test-[\w-]+|helpers|git-servers|hammer)\.ts$/.test(e.name)) files.push(rel);
      }
    };
    for (const dir of ['src', 'test', 'main', 'renderer/src']) walk(dir);
    expect(files.length).toBeGreaterThan(50);
    const helper = /(?:async function|const)\s+(until|waitFor|waitUntil|poll|eventually|sleep)\b/;
    // `while (...) { ... await new Promise((r) => setTimeout(r, n)) }`: a hand-rolled poll.
    const loop = /while\s*\([^)]*\)\s*\{?\s*(?:if[^\n]*\n\s*)?await new Promise\(\(\w+\) => setTimeout\(\w+, [^)]+\)\)/;
    const offenders = files.filter((rel) => {
      const text = fs.readFileSync(path.join(root, rel), 'utf8');
      return helper.test(text) || loop.test(text);
    });
    expect(offenders).toEqual([]);
  });
});
