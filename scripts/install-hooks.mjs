// Part of `npm install` (the `prepare` script): points git at the project's hooks in .githooks/
// (pre-commit: prettier --check and ESLint on the staged files). Only inside this project's own git
// work tree; without git or a .git (CI installing from a tarball, `npm ci` in a bare copy) it does
// nothing, and it never fails the install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = path.resolve(import.meta.dirname, '..');
const git = (...args) => spawnSync('git', args, { cwd: here, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  const top = git('rev-parse', '--show-toplevel');
  // Not a work tree, or this package sits inside another project's repository (installed as a dependency).
  if (top.status !== 0 || fs.realpathSync(top.stdout.trim()) !== fs.realpathSync(here)) process.exit(0);
  if (!fs.existsSync(path.join(here, '.githooks', 'pre-commit'))) process.exit(0);
  if (git('config', '--get', 'core.hooksPath').stdout.trim() === '.githooks') process.exit(0);
  const set = git('config', 'core.hooksPath', '.githooks');
  if (set.status === 0) console.log('git hooks: core.hooksPath set to .githooks (pre-commit runs prettier and ESLint on staged files)');
  else console.warn(`git hooks not installed: ${set.stderr.trim()}`);
} catch (err) {
  console.warn(`git hooks not installed: ${err.message}`);
}
process.exit(0);
