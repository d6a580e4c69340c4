import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Small fixture projects for scripts/test.mjs (the counting script behind `npm test`): package
// scripts that pass or fail on purpose, and Vitest test files written out as given. Used by
// test/test-script.test.ts and test/leak-check.test.ts, which break them and read the counts.

const root = path.resolve(__dirname, '../..');
const script = path.join(root, 'scripts', 'test.mjs');

export interface Fixture {
  build?: 'ok' | 'fail';
  typecheck?: 'ok' | 'fail';
  lint?: 'ok' | 'fail';
  format?: 'ok' | 'fail';
  knip?: 'ok' | 'fail';
  /** Vitest setup files (absolute paths), as vitest.config.ts gives them. */
  setupFiles?: string[];
  tests: Record<string, string>;
}

/** The three code checks (lint, format, dead code) each count as one test: passed when clean. */
export const CHECKS = 3;

export const header = "import { describe, it, expect } from 'vitest';\n";

/** A fixture project in a new temporary folder, added to `dirs` (to remove at the end). */
export function project(f: Fixture, dirs: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-count-'));
  dirs.push(dir);
  const script = (s: 'ok' | 'fail' | undefined) =>
    s === 'fail' ? 'node -e "console.error(\'broken on purpose\');process.exit(1)"' : 'node -e 0';
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({
      name: 'fixture',
      private: true,
      type: 'module',
      scripts: {
        build: script(f.build),
        typecheck: script(f.typecheck),
        lint: script(f.lint),
        'format:check': script(f.format),
        knip: script(f.knip),
      },
    }),
  );
  const config = { include: ['cases/**/*.test.mjs'], testTimeout: 600000, pool: 'forks', setupFiles: f.setupFiles ?? [] };
  fs.writeFileSync(path.join(dir, 'vitest.config.mjs'), `export default { test: ${JSON.stringify(config)} };\n`);
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.mkdirSync(path.join(dir, 'cases'));
  for (const [name, text] of Object.entries(f.tests)) fs.writeFileSync(path.join(dir, 'cases', name), text);
  return dir;
}

export function removeProjects(dirs: string[]): void {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
}

/** Run scripts/test.mjs in `dir`: its last line, exit status, whole output and counts file. */
export async function runCount(dir: string, env: Record<string, string> = {}) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS'));
  const counts = path.join(dir, 'counts.json');
  const child = spawn(process.execPath, [script], {
    cwd: dir,
    env: { ...clean, SKILLDOCK_COUNTS: counts, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString('utf8')));
  child.stderr.resume();
  // Bounded: the script's own steps time out well before this.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  clearTimeout(timer);
  const line = out.trim().split('\n').pop() ?? '';
  return { status, line, out, countsFile: counts, counts: JSON.parse(fs.readFileSync(counts, 'utf8')) as Record<string, unknown> };
}
