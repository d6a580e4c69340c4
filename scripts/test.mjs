// `npm test`: the build, then two lanes side by side: Vitest (engine, CLI, components) in one; the
// code checks (typecheck, lint, format, dead code), then Playwright (browser end-to-end) in the
// other. Each runner writes a JSON report; the end is each step's wall time, then one plain line:
//   `N passed, N failed, N skipped`
// Lint, format and dead-code checks are one test each (passed or failed).
// The line never says 0 failed when something failed: a failed build or typecheck, a runner that
// crashed, hung past its timeout or exited non-zero without a failed test, and an error outside any
// test each count as one failure; a failed test counts once, whatever describe blocks hold it.
// `--agents` runs the real-agent-CLI suite instead (`npm run test:agents`).
// With SKILLDOCK_COUNTS=<file>, counts are also added to that file so .ci/run can total runs.
// SKILLDOCK_TEST_TIMEOUT_MS bounds each step (default 20 minutes).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const agents = process.argv.includes('--agents');
const reports = path.resolve('.tmp/reports');
fs.mkdirSync(reports, { recursive: true });
const win = process.platform === 'win32';
const npx = win ? 'npx.cmd' : 'npx';
const npm = win ? 'npm.cmd' : 'npm';
const timeout = Number(process.env.SKILLDOCK_TEST_TIMEOUT_MS) || 20 * 60_000;
const began = Date.now();
const seconds = (ms) => {
  const s = Math.round(ms / 1000);
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};
const totals = { passed: 0, failed: 0, skipped: 0 };
const problems = [];

// Steps run in lanes: the tests in one, the code checks (then the browser tests) in the other, so a
// check that waits on one core overlaps tests that wait on processes and timers. One step at a time
// prints as it comes (the first started); the others are held and printed whole, each under its own
// header, when the printing step ends, so no two steps' lines are ever mixed.
const running = new Set();
const held = [];
let live = null;
const times = [];

// Ctrl+C or a CI cancel: a step's own process group does not get the terminal's signal; pass it on.
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const s of running) kill(s.child);
    process.exit(130);
  });
}

function kill(child) {
  try {
    if (win) child.kill('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function show(s) {
  live = s;
  process.stdout.write(`\n=== ${s.label}\n`);
  for (const b of s.printed.chunks) process.stdout.write(b);
}

function ended(s) {
  running.delete(s);
  if (live !== s) return void held.push(s);
  live = null;
  for (const h of held.splice(0)) show(h);
  live = null;
  const next = [...running][0];
  if (next) show(next);
}

/**
 * Run one step in its own process group, so a timeout kills the runner and every worker it started
 * (a killed `npx` alone would leave its workers running). Resolves when the step has ended.
 */
function run(label, cmd, args, env = {}) {
  const printed = new Printed();
  const started = Date.now();
  return new Promise((resolveStep) => {
    const child = spawn(cmd, args, { stdio: ['inherit', 'pipe', 'pipe'], env: { ...process.env, ...env }, detached: !win });
    const s = { label, child, printed };
    running.add(s);
    if (!live) show(s);
    const resolve = (r) => {
      times.push({ label, ms: Date.now() - started });
      ended(s);
      resolveStep({ ...r, printed });
    };
    // Shown as it comes when this step prints, and kept: an error outside the tests is repeated next
    // to the closing line.
    child.stdout.on('data', (b) => {
      if (live === s) process.stdout.write(b);
      printed.add(b);
    });
    child.stderr.on('data', (b) => {
      if (live === s) process.stderr.write(b);
      printed.add(b);
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      kill(child);
    }, timeout);
    child.on('error', (err) => {
      clearTimeout(timer);
      problems.push(`${label}: ${err.message}`);
      resolve({ ok: false, counted: true });
    });
    // The step has ended at 'exit'; its output is read to its end at 'close', waited for 2 s at
    // most (a process it left behind may hold the pipe open).
    child.on('exit', (status, signal) => {
      clearTimeout(timer);
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        if (timedOut) {
          problems.push(`${label}: no end after ${timeout} ms (killed)`);
          resolve({ ok: false, counted: true });
        } else if (signal) {
          problems.push(`${label}: killed by ${signal}`);
          resolve({ ok: false, counted: true });
        } else resolve({ ok: status === 0, counted: false });
      };
      const late = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, 2000);
      child.on('close', () => {
        clearTimeout(late);
        finish();
      });
    });
  });
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** What a step printed, its last 4 MB at most (ANSI colours taken out when read). */
class Printed {
  chunks = [];
  size = 0;
  add(b) {
    this.chunks.push(b);
    this.size += b.length;
    while (this.size > 4 << 20 && this.chunks.length > 1) this.size -= this.chunks.shift().length;
  }
  lines() {
    return Buffer.concat(this.chunks).toString('utf8').replace(ANSI, '').split(/\r?\n/);
  }
}

/**
 * The error a runner printed outside its tests (Vitest's "Unhandled Errors" block, a worker that
 * exited unexpectedly), at most 30 lines: the closing lines are what a CI log shows first.
 */
function errorOutsideTests(lines) {
  const start = lines.findIndex((l) => /Unhandled (Errors?|Rejection)|Worker exited|Errors? occurred|Error: \[vitest/.test(l));
  const from = start >= 0 ? start : lines.findLastIndex((l) => /\bError\b/.test(l));
  if (from < 0) return lines.filter((l) => l.trim()).slice(-15);
  return lines.slice(from, from + 30).filter((l) => l.trim() && !/^[\s⎯-]+$/.test(l));
}

/** A check that is one test of its own (lint, format, dead code): one passed or one failed. */
async function check(label, cmd, args) {
  const r = await run(label, cmd, args);
  if (r.ok) totals.passed += 1;
  else {
    totals.failed += 1;
    if (!r.counted) problems.push(`${label}: failed`);
  }
  return r.ok;
}

/** A step with no tests of its own: any failure is one failed test. */
async function step(label, cmd, args) {
  const r = await run(label, cmd, args);
  if (!r.ok) {
    totals.failed += 1;
    if (!r.counted) problems.push(`${label}: failed`);
  }
  return r.ok;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** Vitest's JSON report: tests by their own status; a file that failed outside its tests counts once. */
function countVitest(j) {
  const c = { passed: 0, failed: 0, skipped: 0 };
  for (const file of j.testResults ?? []) {
    let failedHere = 0;
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'passed') c.passed++;
      else if (t.status === 'failed') {
        c.failed++;
        failedHere++;
        // Named next to the closing line: a CI log that keeps only its tail still says which test failed.
        const first = (t.failureMessages ?? [])
          .join('\n')
          .replace(ANSI, '')
          .split('\n')
          .find((l) => l.trim());
        problems.push(
          `${path.relative(process.cwd(), file.name ?? '')} › ${t.fullName ?? t.title}${first ? `\n    ${first.trim().slice(0, 300)}` : ''}`,
        );
      } else c.skipped++;
    }
    if (file.status === 'failed' && failedHere === 0) {
      // An import error, an error in a hook (the leak check's among them): said next to the closing line.
      c.failed++;
      const why = String(file.message ?? '')
        .replace(ANSI, '')
        .split('\n')
        .filter((l) => l.trim())
        .slice(0, 4);
      problems.push(
        `${path.relative(process.cwd(), file.name ?? '')}: failed outside its tests:\n${why.map((l) => `    ${l}`).join('\n')}`,
      );
    }
  }
  return c;
}

/** Playwright's JSON report stats; errors outside tests (a crashing config or worker) count too. */
function countPlaywright(j) {
  const s = j.stats ?? {};
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const err = (t.results ?? []).flatMap((r) => r.errors ?? [r.error ?? {}]).find((e) => e?.message);
        const first = String(err?.message ?? '')
          .replace(ANSI, '')
          .split('\n')
          .find((l) => l.trim());
        const name = [...titles, spec.title].filter(Boolean).join(' › ');
        problems.push(
          `${spec.file}:${spec.line} › ${t.projectName ? `[${t.projectName}] ` : ''}${name}${first ? `\n    ${first.trim().slice(0, 300)}` : ''}`,
        );
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of j.suites ?? []) walk(suite, []);
  return {
    passed: (s.expected ?? 0) + (s.flaky ?? 0),
    failed: (s.unexpected ?? 0) + (j.errors ?? []).length,
    skipped: s.skipped ?? 0,
  };
}

/** A runner: its report's counts, and one failure more when it failed without a failed test to show. */
async function runner(label, cmd, args, env, report, count) {
  fs.rmSync(report, { force: true });
  const r = await run(label, cmd, args, env);
  const j = readJson(report);
  const c = j ? count(j) : { passed: 0, failed: 0, skipped: 0 };
  if (!j) {
    c.failed += 1;
    if (!r.counted) problems.push(`${label}: wrote no report`);
  } else if (!r.ok && c.failed === 0) {
    c.failed += 1;
    if (!r.counted) {
      const said = errorOutsideTests(r.printed.lines()).map((l) => `    ${l}`);
      problems.push(`${label}: exited with failure but no test failed, an error outside the tests:\n${said.join('\n')}`);
    }
  }
  for (const k of Object.keys(totals)) totals[k] += c[k];
}

const vitestArgs = (config, out) => ['vitest', 'run', ...config, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];

if (agents) {
  await runner(
    'real agent CLIs (Vitest, e2e/agents)',
    npx,
    vitestArgs(['--config', 'e2e/agents/vitest.config.ts'], path.join(reports, 'agents.json')),
    {},
    path.join(reports, 'agents.json'),
    countVitest,
  );
} else {
  // The build is part of the count: a build error is a failed test, not a silent stop before counting.
  const built = await step('build (engine and renderer)', npm, ['run', '-s', 'build']);
  // Each code check is one test in the count: its findings fail the line like a failed test. Types
  // are part of the build: a type error fails `npm test` (counted as one failure).
  const checks = async () => {
    await step('typecheck (tsc strict: engine, renderer, tests)', npm, ['run', '-s', 'typecheck']);
    await check('lint (ESLint, typescript-eslint, front-door imports)', npm, ['run', '-s', 'lint']);
    await check('format (prettier --check)', npm, ['run', '-s', 'format:check']);
    await check('dead code (knip)', npm, ['run', '-s', 'knip']);
  };
  const unit = async () => {
    const out = path.join(reports, 'vitest.json');
    await runner('engine, CLI and components (Vitest)', npx, vitestArgs([], out), {}, out, countVitest);
  };
  const browser = async () => {
    if (!fs.existsSync('playwright.config.ts')) return;
    const out = path.join(reports, 'playwright.json');
    await runner(
      'browser end-to-end (Playwright)',
      npx,
      ['playwright', 'test'],
      { PLAYWRIGHT_JSON_OUTPUT_NAME: out },
      out,
      countPlaywright,
    );
  };
  if (built) {
    // Two lanes on two cores: Vitest in one; the checks, then Playwright, in the other.
    await Promise.all([unit(), checks().then(browser)]);
  } else {
    await checks();
    problems.push('the tests did not run: they need the build');
  }
}

const countsFile = process.env.SKILLDOCK_COUNTS;
if (countsFile) {
  const prev = readJson(countsFile) ?? { passed: 0, failed: 0, skipped: 0 };
  for (const k of Object.keys(totals)) prev[k] += totals[k];
  // The failed tests' names travel too: .ci/run says them again under the last runner's output,
  // where a CI log that keeps only its tail still shows them.
  prev.problems = [...(prev.problems ?? []), ...problems];
  fs.writeFileSync(countsFile, JSON.stringify(prev));
}
console.log(`\nstep times (wall clock; the lanes run side by side):`);
for (const t of times) console.log(`  ${t.label.padEnd(56)} ${seconds(t.ms)}`);
console.log(`  ${'npm test'.padEnd(56)} ${seconds(Date.now() - began)}`);
if (problems.length) console.log(`\n${problems.map((p) => `! ${p}`).join('\n')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
