import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { findSleeps } from './sleep-scan.js';
import { MAX_WAIT_MS, poll, waitFor } from './wait.js';

describe('test support: waiting', () => {
  it('returns as soon as the condition holds, sync or async', async () => {
    let n = 0;
    const started = Date.now();
    await waitFor(() => ++n >= 3, { intervalMs: 5 });
    expect(n).toBe(3);
    await waitFor(async () => true);
    // far under waitFor's default timeout (5 s), even on a loaded machine
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('fails after the timeout, naming what it waited for', async () => {
    const started = Date.now();
    await expect(waitFor(() => false, { timeoutMs: 120, intervalMs: 10, what: 'the moon' })).rejects.toThrow(
      'timed out after 120 ms waiting for the moon',
    );
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(110);
    expect(took).toBeLessThan(4000);
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

/** Every test file and test helper: test files, test folders, fixtures and the named helpers. */
function testCode(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${e.name}`;
      if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
      if (e.isDirectory()) walk(rel);
      else if (!/\.(ts|tsx|mts|mjs)$/.test(e.name) || rel === 'test/support/wait.ts') continue;
      else if (
        /\.test\.tsx?$/.test(e.name) ||
        /^(test|e2e|renderer\/src\/test)\//.test(rel) ||
        /\/fixtures\//.test(rel) ||
        /^(test-[\w-]+|helpers|git-servers|hammer)\.ts$/.test(e.name)
      )
        files.push(rel);
    }
  };
  for (const dir of ['src', 'test', 'main', 'renderer/src', 'e2e']) walk(dir);
  return files;
}

describe('waiting in tests goes through test/support/wait.ts', () => {
  const root = path.resolve(__dirname, '../..');

  it('finds a sleep planted in any of its forms, and not a timer that is no sleep or code inside a string', () => {
    const planted = [
      'await new Promise((r) => setTimeout(r, 60));',
      'const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));',
      'await new Promise((resolve) => { setTimeout(() => resolve(undefined), 5); });',
      'await new Promise(function (done) { globalThis.setTimeout(done, 5); });',
      "import { setTimeout as delay } from 'node:timers/promises';",
      "const { scheduler } = await import('timers/promises');",
      'const pause = util.promisify(setTimeout);',
      'await page.waitForTimeout(50);',
      'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);',
      'async function until(cond: () => boolean) { while (!cond()) await tick(); }', // a wait helper of its own
      'const settle = () => act(async () => {});',
    ];
    for (const code of planted) expect([...new Set(findSleeps(code).map((s) => s.line))], code).toEqual([1]);
    const fine = [
      "const t = setTimeout(() => reject(new Error('no answer')), 20_000);", // a bound, not a wait
      "await new Promise((resolve) => child.once('exit', resolve));", // waits for an event
      'const text = `await new Promise((r) => setTimeout(r, 200));`;', // a fixture file's text
      "await sleep(600); // test/support/wait.ts's: a deliberate quiet period",
      'await new Promise((resolve) => setTimeout(() => { n++; resolve(n); }, 5));', // the timer does work
    ];
    for (const code of fine) expect(findSleeps(code), code).toEqual([]);
    expect(findSleeps('it("x", async () => {\n  await page.waitForTimeout(50);\n});', 'a.spec.ts')).toEqual([
      { line: 2, kind: 'waitForTimeout (Playwright: a fixed wait)' },
    ]);
  });

  it('no test or test helper (e2e/ too) sleeps or defines its own wait helper', () => {
    const files = testCode(root);
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain('e2e/drag.ts');
    const offenders: string[] = [];
    for (const rel of files) {
      const text = fs.readFileSync(path.join(root, rel), 'utf8');
      for (const s of findSleeps(text, rel)) offenders.push(`${rel}:${s.line}: ${s.kind}`);
    }
    expect(offenders).toEqual([]);
  }, 60_000); // reads every test file (6 s idle, more under load)
});
