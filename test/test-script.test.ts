import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKS, header, project as makeProject, removeProjects, runCount, type Fixture } from './support/count-project.js';

// scripts/test.mjs, the counting script behind `npm test`, run on small fixture projects broken on
// purpose: its closing line and exit status must never say 0 failed when something failed.

const project = (f: Fixture) => makeProject(f, dirs);
const root = path.resolve(__dirname, '..');

const dirs: string[] = [];
afterAll(() => removeProjects(dirs));

// Each case runs a whole `npm test` of its own (npm and Vitest starting up, mostly waiting on
// processes): side by side they take a third of the time one after another.
// Ten whole `npm test` runs side by side take 9-14 s each idle; under CI's two lanes on two cores the
// default 30 s was too close (a CI run failed one test and its tail did not say which).
describe.concurrent('scripts/test.mjs counts honestly', { timeout: 150_000 }, () => {
  it('a green project: every test once, exit 0', async () => {
    const r = await runCount(project({ tests: { 'a.test.mjs': `${header}it('one', () => {});\nit('two', () => {});\n` } }));
    expect(r.line).toBe(`${2 + CHECKS} passed, 0 failed, 0 skipped`);
    expect(r.status).toBe(0);
  });

  it('ends with the wall time of each step, then the count as the very last line; steps run side by side never mix their lines', async () => {
    // The checks lane is slow here (each check sleeps), so Vitest ends first and prints live while
    // the checks are held and printed whole after it.
    const slow = 'node -e "console.log(process.env.npm_lifecycle_event + \' output\');setTimeout(() => {}, 1500)"';
    const dir = project({ tests: { 'a.test.mjs': `${header}it('one', () => {});\n` } });
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const k of ['typecheck', 'lint', 'format:check', 'knip']) pkg.scripts[k] = slow;
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(pkg));
    const r = await runCount(dir);
    expect(r.line).toBe(`${1 + CHECKS} passed, 0 failed, 0 skipped`);
    const lines = r.out.trimEnd().split('\n');
    const at = lines.indexOf('step times (wall clock; the lanes run side by side):');
    expect(at).toBeGreaterThan(0);
    const steps = [
      'build (engine and renderer)',
      'typecheck',
      'lint',
      'format',
      'dead code',
      'engine, CLI and components (Vitest)',
      'npm test',
    ];
    const timed = lines.slice(at + 1, at + 1 + steps.length);
    for (const s of steps)
      expect(
        timed.find((l) => l.trimStart().startsWith(s)),
        s,
      ).toMatch(/ \d+\.\d s$/);
    // The lanes overlapped: the whole run took less than the checks one after another plus Vitest.
    const secs = (name: string) => Number(/ ([\d.]+) s$/.exec(timed.find((l) => l.trimStart().startsWith(name))!)![1]);
    expect(secs('npm test')).toBeLessThan(
      secs('build') + secs('typecheck') + secs('lint') + secs('format') + secs('dead code') + secs('engine'),
    );
    // Each step's output sits under its own header, whole.
    for (const [header, said] of [
      ['=== typecheck', 'typecheck output'],
      ['=== lint', 'lint output'],
      ['=== format', 'format:check output'],
      ['=== dead code', 'knip output'],
    ]) {
      const h = lines.findIndex((l) => l.startsWith(header));
      expect(lines[h + 1], header).toBe(said);
    }
    const vitest = lines.findIndex((l) => l.startsWith('=== engine, CLI and components'));
    const next = lines.findIndex((l, i) => i > vitest && l.startsWith('=== '));
    expect(
      lines
        .slice(vitest, next)
        .join('\n')
        .replace(/\x1b\[[0-9;]*m/g, ''),
    ).toMatch(/Tests\s+1 passed/);
  });

  it('one failing assertion inside nested describe blocks counts once', async () => {
    const text = `${header}describe('outer', () => { describe('inner', () => { it('fails', () => { expect(1).toBe(2); }); it('passes', () => {}); }); });\n`;
    const r = await runCount(project({ tests: { 'a.test.mjs': text } }));
    expect(r.line).toBe(`${1 + CHECKS} passed, 1 failed, 0 skipped`);
    expect(r.status).toBe(1);
    expect(r.counts).toMatchObject({ passed: 1 + CHECKS, failed: 1, skipped: 0 });
    // The failed test is named after the step times, where a CI log's tail shows it, with its error.
    const tail = r.out.slice(r.out.lastIndexOf('step times'));
    expect(tail).toMatch(/! cases\/a\.test\.mjs › outer inner fails\n\s+AssertionError: expected 1 to be 2/);
    // .ci/run's closing lines (after the real-agent suite) name it again from the counts file.
    const ci = execFileSync(process.execPath, [path.join(root, 'scripts', 'ci-total.mjs'), r.countsFile], { encoding: 'utf8' });
    expect(ci.trim().split('\n').slice(-4).join('\n')).toMatch(
      /^! cases\/a\.test\.mjs › outer inner fails\n\s+AssertionError: expected 1 to be 2[^\n]*\n\n4 passed, 1 failed, 0 skipped$/,
    );
  });

  it('an error thrown after a test has passed is a failure, in the line and in the counts file', async () => {
    const text = `${header}it('passes, then throws later', () => { setTimeout(() => { throw new Error('late error on purpose'); }, 5); });\nit('waits', async () => { await new Promise((r) => setTimeout(r, 200)); });\n`;
    const r = await runCount(project({ tests: { 'a.test.mjs': text } }));
    expect(r.status).toBe(1);
    expect(r.line).toMatch(/^\d+ passed, [1-9]\d* failed/);
    expect(r.counts.failed).toBeGreaterThan(0);
    // The error itself is repeated next to the closing line, where a CI log's tail shows it.
    const closing = r.out.slice(r.out.lastIndexOf('\n=== '));
    expect(closing).toMatch(
      /! engine, CLI and components \(Vitest\): exited with failure but no test failed, an error outside the tests:\n.*late error on purpose/s,
    );
  });

  it('a test whose process dies (killed) is a failure, and why is repeated next to the closing line', async () => {
    const text = `${header}it('ok', () => {});\nit('kills its own process', () => { process.kill(process.pid, 'SIGKILL'); });\n`;
    const r = await runCount(project({ tests: { 'a.test.mjs': text, 'b.test.mjs': `${header}it('fine', () => {});\n` } }));
    expect(r.status).toBe(1);
    expect(r.line).toMatch(/^\d+ passed, [1-9]\d* failed/);
    expect(r.counts.failed).toBeGreaterThan(0);
    // Vitest says it one of two ways, by which side of the pipe sees the death first (a loaded
    // machine gave the second): either is the reason, said next to the closing line.
    expect(r.out.slice(r.out.lastIndexOf('\n=== '))).toMatch(
      /an error outside the tests:\n.*(Worker exited unexpectedly|Worker forks emitted error)/s,
    );
  });

  it('a file that cannot load counts as a failure', async () => {
    const r = await runCount(
      project({
        tests: {
          'a.test.mjs': `${header}import './missing.mjs';\nit('never runs', () => {});\n`,
          'b.test.mjs': `${header}it('ok', () => {});\n`,
        },
      }),
    );
    expect(r.line).toBe(`${1 + CHECKS} passed, 1 failed, 0 skipped`);
    expect(r.status).toBe(1);
  });

  it('a build error is a counted failure, not a silent stop', async () => {
    const r = await runCount(project({ build: 'fail', tests: { 'a.test.mjs': `${header}it('ok', () => {});\n` } }));
    expect(r.line).toBe(`${CHECKS} passed, 1 failed, 0 skipped`);
    expect(r.out).toContain('the tests did not run');
    expect(r.status).toBe(1);
  });

  it('a type error is a counted failure', async () => {
    const r = await runCount(project({ typecheck: 'fail', tests: { 'a.test.mjs': `${header}it('ok', () => {});\n` } }));
    expect(r.line).toBe(`${1 + CHECKS} passed, 1 failed, 0 skipped`);
    expect(r.status).toBe(1);
  });

  it('a hung runner is killed at its timeout and counted', async () => {
    const text = `${header}it('hangs', async () => { await new Promise(() => {}); });\n`;
    const t0 = Date.now();
    const r = await runCount(project({ tests: { 'a.test.mjs': text } }), { SKILLDOCK_TEST_TIMEOUT_MS: '8000' });
    expect(Date.now() - t0).toBeLessThan(60_000);
    expect(r.line).toMatch(new RegExp(`^${CHECKS} passed, [1-9]\\d* failed`));
    expect(r.out).toMatch(/no end after 8000 ms/);
    expect(r.status).toBe(1);
  });

  it('a lint, format or dead-code finding is a failed test in the line, the counts file and the exit status', async () => {
    const ok = { 'a.test.mjs': `${header}it('ok', () => {});\n` };
    const lint = await runCount(project({ lint: 'fail', tests: ok }));
    expect(lint.line).toBe(`${1 + CHECKS - 1} passed, 1 failed, 0 skipped`);
    expect(lint.out).toMatch(/! lint \(ESLint[^\n]*: failed/);
    expect(lint.status).toBe(1);
    expect(lint.counts).toMatchObject({ passed: CHECKS, failed: 1, skipped: 0 });
    const all = await runCount(project({ lint: 'fail', format: 'fail', knip: 'fail', tests: ok }));
    expect(all.line).toBe('1 passed, 3 failed, 0 skipped');
    expect(all.out).toMatch(/! format \(prettier --check\): failed/);
    expect(all.out).toMatch(/! dead code \(knip\): failed/);
    expect(all.status).toBe(1);
  });
});
