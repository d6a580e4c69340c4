// The component tests spawn `bin/skilldock.js`, which runs dist/cli.mjs: the bundle must be the one
// the sources make now, or a test could pass on yesterday's code. Vitest's global setup
// (test/global-setup.ts) rebuilds it before any test; this checks that it did.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');

function newestSource(dir: string): { file: string; mtimeMs: number } {
  let newest = { file: '', mtimeMs: 0 };
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !/\.tsx?$/.test(e.name) || /\.test\.tsx?$/.test(e.name)) continue;
    const file = path.join(e.parentPath, e.name);
    const { mtimeMs } = fs.statSync(file);
    if (mtimeMs > newest.mtimeMs) newest = { file, mtimeMs };
  }
  return newest;
}

describe('the CLI the component tests run', () => {
  it('is built by the test run itself, after the newest engine source', () => {
    const setup = fs.readFileSync(path.join(root, 'vitest.config.ts'), 'utf8');
    expect(setup).toMatch(/globalSetup:\s*\[[^\]]*'test\/global-setup\.ts'/);
    const bundles = ['dist/cli.mjs', 'dist/analyze-worker.mjs', 'dist/main/index.cjs'].map((f) => path.join(root, f));
    const src = newestSource(path.join(root, 'src'));
    expect(src.file).not.toBe('');
    for (const bundle of bundles) {
      const built = fs.statSync(bundle).mtimeMs;
      expect(built, `${path.relative(root, bundle)} is older than ${path.relative(root, src.file)}`).toBeGreaterThanOrEqual(src.mtimeMs);
    }
    // And the bin really runs that bundle.
    expect(fs.readFileSync(path.join(root, 'bin', 'skilldock.js'), 'utf8')).toContain('cli.mjs');
  });
});
