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
    const bundles = [
      'dist/cli.mjs',
      'dist/list.cjs',
      'dist/analyze.cjs',
      'dist/hook.cjs',
      'dist/mcp.cjs',
      'dist/engine.mjs',
      'dist/analyze-worker.mjs',
      'dist/read-worker.cjs',
      'dist/main/index.cjs',
    ].map((f) => path.join(root, f));
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

describe('one build, one engine build id', () => {
  // The index and the memos of validations are keyed by the engine build (src/store/lazy-schema.ts
  // engineBuild): the app, the CLI and its doors must name the same one, or each would distrust
  // and rewrite what the others wrote.
  it('is in every bundle that keys a cache', () => {
    const first = fs.readFileSync(path.join(root, 'dist', 'list.cjs'), 'utf8').split('\n', 1)[0]!;
    const id = /^\/\/ skilldock list door, build (\S+)$/.exec(first)?.[1];
    expect(id, first).toBeTruthy();
    const chunks = fs.readdirSync(path.join(root, 'dist')).filter((f) => /^(cli|chunk-.*)\.mjs$/.test(f));
    const cli = chunks.some((f) => fs.readFileSync(path.join(root, 'dist', f), 'utf8').includes(JSON.stringify(id)));
    expect(cli).toBe(true);
    for (const f of ['list.cjs', 'hook.cjs', 'analyze-worker.mjs', 'main/index.cjs']) {
      expect(fs.readFileSync(path.join(root, 'dist', f), 'utf8'), f).toContain(JSON.stringify(id));
    }
    // The MCP door keys no cache (its engine is cli.mjs's chunks) but its code cache is its build's.
    expect(fs.readFileSync(path.join(root, 'dist', 'mcp.cjs'), 'utf8').split('\n', 1)[0]).toBe(`// skilldock mcp door, build ${id}`);
  });
});
