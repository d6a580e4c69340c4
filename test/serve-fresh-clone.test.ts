// A fresh clone after `npm install`: `prepare` builds the engine only, so `dist/renderer` is missing
// while the source `renderer/index.html` (which loads ./src/main.tsx) sits above `dist/`. Served as the
// UI it gave a blank page (a TypeScript module as application/octet-stream); `serve` must say instead
// that the UI is not built and how to build it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { findRendererDir } from '../src/server/locate.js';

const root = path.resolve(__dirname, '..');
let tmp: string;
let clone: string;
let child: ChildProcess | null = null;

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist/cli.mjs'))) throw new Error('dist/cli.mjs is missing: run `npm run build:engine` first');
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-fresh-'));
  clone = path.join(tmp, 'clone');
  // The clone's layout: the engine's bundles in dist/ (no dist/renderer), the renderer's sources.
  fs.mkdirSync(path.join(clone, 'renderer', 'src'), { recursive: true });
  fs.copyFileSync(path.join(root, 'renderer/index.html'), path.join(clone, 'renderer/index.html'));
  fs.copyFileSync(path.join(root, 'renderer/src/main.tsx'), path.join(clone, 'renderer/src/main.tsx'));
  fs.cpSync(path.join(root, 'dist'), path.join(clone, 'dist'), {
    recursive: true,
    filter: (src) => path.relative(path.join(root, 'dist'), src).split(path.sep)[0] !== 'renderer',
  });
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(clone, 'node_modules'));
  fs.copyFileSync(path.join(root, 'package.json'), path.join(clone, 'package.json'));
});

afterAll(() => {
  if (child?.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the renderer lookup', () => {
  it('passes over a source renderer/ and finds no UI in a clone whose renderer is not built', () => {
    expect(findRendererDir({}, path.join(clone, 'dist', 'cli.mjs'))).toBeNull();
    expect(findRendererDir({}, path.join(clone, 'dist', 'main', 'index.cjs'))).toBeNull();
  });

  it('finds dist/renderer once it is built, from the CLI, its chunks and the main process', () => {
    const built = path.join(tmp, 'built');
    fs.mkdirSync(path.join(built, 'renderer', 'src'), { recursive: true });
    fs.copyFileSync(path.join(root, 'renderer/index.html'), path.join(built, 'renderer/index.html'));
    fs.mkdirSync(path.join(built, 'dist', 'renderer', 'assets'), { recursive: true });
    fs.writeFileSync(
      path.join(built, 'dist', 'renderer', 'index.html'),
      '<!doctype html><script type="module" crossorigin src="./assets/index-abc.js"></script><div id="root"></div>',
    );
    fs.mkdirSync(path.join(built, 'dist', 'main'), { recursive: true });
    const want = path.join(built, 'dist', 'renderer');
    expect(findRendererDir({}, path.join(built, 'dist', 'cli.mjs'))).toBe(want);
    expect(findRendererDir({}, path.join(built, 'dist', 'chunk-X.mjs'))).toBe(want);
    expect(findRendererDir({}, path.join(built, 'dist', 'main', 'index.cjs'))).toBe(want);
  });
});

describe('skilldock serve in a fresh clone', () => {
  it('says the UI is not built and how to build it, and the page says so instead of going blank', async () => {
    const home = path.join(tmp, 'home');
    const user = path.join(tmp, 'user');
    fs.mkdirSync(user, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: user, SKILLDOCK_HOME: home, SKILLDOCK_USER_HOME: user, NO_COLOR: '1' };
    delete env.SKILLDOCK_RENDERER_DIR;
    child = spawn(process.execPath, [path.join(clone, 'dist', 'cli.mjs'), 'serve', '--port', '0', '--json'], {
      cwd: clone,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const proc = child;
    const info = await new Promise<{ origin: string; rendererDir: string | null }>((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`no URL in 20 s; stdout: ${out} stderr: ${err}`)), 20_000);
      proc.stderr!.on('data', (d) => (err += d));
      proc.stdout!.on('data', (d) => {
        out += d;
        const line = out.split('\n').find((l) => l.startsWith('{'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line));
        }
      });
      proc.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited ${code}; stdout: ${out} stderr: ${err}`));
      });
    });
    expect(info.rendererDir).toBeNull();
    const page = await fetch(`${info.origin}/`);
    const text = await page.text();
    expect(text).toContain('not built yet');
    expect(text).toContain('npm run build');
    expect(page.headers.get('content-type') ?? '').not.toContain('octet-stream');
    const source = await fetch(`${info.origin}/src/main.tsx`);
    expect(source.headers.get('content-type') ?? '').not.toContain('octet-stream');
    const exited = new Promise((resolve) => proc.on('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  });
});
