// `npm test`: every test runner in turn (unit/engine with Vitest, browser end-to-end with
// Playwright), each writing a JSON report, then one plain `N passed, N failed` line over all.
// `--agents` runs the real-agent-CLI suite instead (`npm run test:agents`).
// With SKILLDOCK_COUNTS=<file>, counts are also added to that file so .ci/run can total runs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const agents = process.argv.includes('--agents');
const reports = path.resolve('.tmp/reports');
fs.mkdirSync(reports, { recursive: true });
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const totals = { passed: 0, failed: 0, skipped: 0 };
let exit = 0;

function run(label, cmd, args, env = {}) {
  process.stdout.write(`\n=== ${label}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) exit = 1;
  return r.status;
}

function addVitest(file) {
  if (!fs.existsSync(file)) return false;
  const j = JSON.parse(fs.readFileSync(file, 'utf8'));
  totals.passed += j.numPassedTests ?? 0;
  totals.failed += (j.numFailedTests ?? 0) + (j.numFailedTestSuites ?? 0);
  totals.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
  return true;
}

function addPlaywright(file) {
  if (!fs.existsSync(file)) return false;
  const j = JSON.parse(fs.readFileSync(file, 'utf8'));
  const s = j.stats ?? {};
  totals.passed += (s.expected ?? 0) + (s.flaky ?? 0);
  totals.failed += s.unexpected ?? 0;
  totals.skipped += s.skipped ?? 0;
  if ((j.errors ?? []).length) totals.failed += j.errors.length;
  return true;
}

function fresh(file) {
  fs.rmSync(file, { force: true });
  return file;
}

if (agents) {
  const out = fresh(path.join(reports, 'agents.json'));
  run('real agent CLIs (Vitest, e2e/agents)', npx, [
    'vitest',
    'run',
    '--config',
    'e2e/agents/vitest.config.ts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  if (!addVitest(out)) totals.failed += 1;
} else {
  // Types are part of the build: a type error fails `npm test` (counted as one failure).
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (run('typecheck (tsc strict: engine, renderer, tests)', npm, ['run', '-s', 'typecheck']) !== 0) totals.failed += 1;
  const unit = fresh(path.join(reports, 'vitest.json'));
  run('engine, CLI and components (Vitest)', npx, ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${unit}`]);
  if (!addVitest(unit)) totals.failed += 1;
  if (fs.existsSync('playwright.config.ts')) {
    const e2e = fresh(path.join(reports, 'playwright.json'));
    run('browser end-to-end (Playwright)', npx, ['playwright', 'test'], { PLAYWRIGHT_JSON_OUTPUT_NAME: e2e });
    if (!addPlaywright(e2e)) totals.failed += 1;
  }
}

const countsFile = process.env.SKILLDOCK_COUNTS;
if (countsFile) {
  const prev = fs.existsSync(countsFile) ? JSON.parse(fs.readFileSync(countsFile, 'utf8')) : { passed: 0, failed: 0, skipped: 0 };
  for (const k of Object.keys(totals)) prev[k] += totals[k];
  fs.writeFileSync(countsFile, JSON.stringify(prev));
}
if (exit && totals.failed === 0) totals.failed = 1; // a runner failed without a countable test
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(exit);
