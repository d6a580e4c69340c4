import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// scripts/install-hooks.mjs (the `prepare` step of `npm install`): sets core.hooksPath only in this
// project's own git work tree, and never fails the install (no git repository, or installed inside
// another project's repository).

const root = path.resolve(__dirname, '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A copy of what the script needs: itself and the hook, at `dir` (made here). */
function packageAt(dir: string): string {
  fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  fs.mkdirSync(path.join(dir, '.githooks'));
  fs.copyFileSync(path.join(root, 'scripts', 'install-hooks.mjs'), path.join(dir, 'scripts', 'install-hooks.mjs'));
  fs.copyFileSync(path.join(root, '.githooks', 'pre-commit'), path.join(dir, '.githooks', 'pre-commit'));
  return dir;
}

function scratch(): string {
  const d = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-hooks-'));
  dirs.push(d);
  return d;
}

// Git must not find the repository this test runs in, nor the user's global config.
const env = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CEILING_DIRECTORIES: fs.realpathSync(os.tmpdir()),
};
const git = (cwd: string, ...args: string[]) => spawnSync('git', args, { cwd, env, encoding: 'utf8' });
const install = (cwd: string) => spawnSync(process.execPath, ['scripts/install-hooks.mjs'], { cwd, env, encoding: 'utf8' });

describe('prepare: git hooks', () => {
  it('sets core.hooksPath to .githooks in the project work tree, once', () => {
    const dir = packageAt(scratch());
    expect(git(dir, 'init', '-q').status).toBe(0);
    const r = install(dir);
    expect(r.status).toBe(0);
    expect(git(dir, 'config', '--get', 'core.hooksPath').stdout.trim()).toBe('.githooks');
    expect(install(dir).stdout).toBe(''); // already set: nothing to say
  });

  it('does nothing and exits 0 without a git repository (npm ci from a tarball)', () => {
    const dir = packageAt(scratch());
    const r = install(dir);
    expect(r.status).toBe(0);
    expect(fs.existsSync(path.join(dir, '.git'))).toBe(false);
  });

  it("leaves another project's repository alone when installed inside it", () => {
    const outer = scratch();
    expect(git(outer, 'init', '-q').status).toBe(0);
    const dir = packageAt(path.join(outer, 'node_modules', 'skilldock'));
    expect(install(dir).status).toBe(0);
    expect(git(outer, 'config', '--get', 'core.hooksPath').stdout.trim()).toBe('');
  });

  it('the hook refuses a staged file that is unformatted or fails ESLint, and passes a clean one', () => {
    const hook = path.join(root, '.githooks', 'pre-commit');
    const dir = scratch();
    expect(git(dir, 'init', '-q').status).toBe(0);
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    fs.writeFileSync(path.join(dir, '.prettierrc.json'), fs.readFileSync(path.join(root, '.prettierrc.json')));
    fs.writeFileSync(
      path.join(dir, 'eslint.config.mjs'),
      "export default [{ files: ['**/*.mjs'], rules: { 'no-unused-vars': 'error' } }];\n",
    );
    const run = () => spawnSync('sh', [hook], { cwd: dir, env, encoding: 'utf8' });
    fs.writeFileSync(path.join(dir, 'a.mjs'), 'export const a = {b:1}\n');
    git(dir, 'add', 'a.mjs');
    let r = run();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('formatting differs');
    fs.writeFileSync(path.join(dir, 'a.mjs'), 'const unused = 1;\nexport const a = { b: 1 };\n');
    git(dir, 'add', 'a.mjs');
    r = run();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ESLint found problems');
    fs.writeFileSync(path.join(dir, 'a.mjs'), 'export const a = { b: 1 };\n');
    git(dir, 'add', 'a.mjs');
    r = run();
    expect(r.stderr + r.stdout).not.toContain('pre-commit:');
    expect(r.status).toBe(0);
  }, 90_000); // three hook runs, each starting prettier and ESLint through npx: 30 s was passed at a load of 24
});
