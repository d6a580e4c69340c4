// `npm run package` (scripts/package.mjs + electron-builder.yml), checked the way CI can: `--linux dir` offline with a stand-in Electron
// dist (docs/toolchain.md). The stand-in carries a fuse wire so the fuse settings are checked too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const root = path.resolve(__dirname, '..');
const require = createRequire(import.meta.url);
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const FUSE = { runAsNode: 0, cookieEncryption: 1, nodeOptions: 2, inspectArgs: 3, onlyAsar: 5, fileProtocolPrivileges: 7 };
const ENABLE = 0x31;
const DISABLE = 0x30;

let tmp: string;
let out: string;
let log = '';
let status: number | null = null;

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

beforeAll(() => {
  for (const built of ['dist/main/index.cjs', 'dist/main/preload.cjs', 'dist/cli.mjs', 'dist/renderer/index.html']) {
    if (!fs.existsSync(path.join(root, built))) throw new Error(`${built} is missing: run \`npm run build\` first`);
  }
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-pack-'));
  const dist = path.join(tmp, 'electron-dist');
  fs.mkdirSync(dist);
  // Stand-in binary: a script with Electron's fuse wire (version 1, 8 fuses, all enabled).
  const wire = Buffer.concat([Buffer.from(SENTINEL), Buffer.from([1, 8]), Buffer.alloc(8, ENABLE)]);
  fs.writeFileSync(path.join(dist, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\n# stand-in: '), wire, Buffer.from('\nexit 0\n')]), {
    mode: 0o755,
  });
  fs.copyFileSync(path.join(root, 'node_modules/electron/LICENSE'), path.join(dist, 'LICENSE'));
  fs.writeFileSync(path.join(dist, 'version'), require('electron/package.json').version);
  out = path.join(tmp, 'out');
  // `npm run package` itself, offline with the stand-in (dist/ was checked above: no rebuild).
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'scripts/package.mjs'), '--no-build', '--linux', 'dir', `-c.directories.output=${out}`],
    {
      cwd: root,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, SKILLDOCK_ELECTRON_DIST: dist, ELECTRON_BUILDER_CACHE: path.join(tmp, 'cache'), CI: 'true' },
    },
  );
  status = r.status;
  log = `${r.stdout}\n${r.stderr}`;
}, 300_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('packaging (electron-builder --linux dir, stand-in Electron)', () => {
  it('packs offline', () => {
    expect(status, log).toBe(0);
    expect(fs.existsSync(path.join(out, 'linux-unpacked', 'skilldock'))).toBe(true);
  });

  it('ships the built-in skills, the agent registry and the starter assistants as resources', () => {
    const res = path.join(out, 'linux-unpacked', 'resources');
    expect(fs.readFileSync(path.join(res, 'agents.json'), 'utf8')).toBe(fs.readFileSync(path.join(root, 'resources/agents.json'), 'utf8'));
    for (const dir of ['skills', 'assistants']) {
      const want = files(path.join(root, 'resources', dir));
      expect(files(path.join(res, dir)), dir).toEqual(want);
      for (const f of want) {
        expect(fs.readFileSync(path.join(res, dir, f)).equals(fs.readFileSync(path.join(root, 'resources', dir, f))), f).toBe(true);
      }
    }
    expect(files(path.join(root, 'resources/assistants')).length).toBeGreaterThan(0);
  });

  it('puts the bundled app in the asar and leaves node_modules and source maps out', () => {
    const asar = require('@electron/asar') as { listPackage(p: string): string[] };
    const list = asar.listPackage(path.join(out, 'linux-unpacked', 'resources', 'app.asar')).map((p) => p.split(path.sep).join('/'));
    for (const f of ['/package.json', '/dist/main/index.cjs', '/dist/main/preload.cjs', '/dist/cli.mjs', '/dist/renderer/index.html'])
      expect(list).toContain(f);
    expect(list.filter((p) => p.includes('node_modules'))).toEqual([]);
    expect(list.filter((p) => p.endsWith('.map'))).toEqual([]);
  });

  it('flips the hardening fuses: no run-as-node, no NODE_OPTIONS or inspect flags, app only from asar', () => {
    const bin = fs.readFileSync(path.join(out, 'linux-unpacked', 'skilldock'));
    const at = bin.indexOf(SENTINEL) + SENTINEL.length + 2;
    expect(bin[at + FUSE.runAsNode]).toBe(DISABLE);
    expect(bin[at + FUSE.nodeOptions]).toBe(DISABLE);
    expect(bin[at + FUSE.inspectArgs]).toBe(DISABLE);
    expect(bin[at + FUSE.cookieEncryption]).toBe(ENABLE);
    expect(bin[at + FUSE.onlyAsar]).toBe(ENABLE);
    expect(bin[at + FUSE.fileProtocolPrivileges]).toBe(DISABLE);
  });

  it("makes the app's executable the CLI the write guard calls: the packaged main bundle runs `--cli` commands without a window", () => {
    // No Electron binary runs here: the packaged bundle (out of the asar) runs on Node with an
    // `electron` module that has only what the CLI mode may touch; opening a window would throw.
    const asar = require('@electron/asar') as { extractAll(archive: string, dest: string): void };
    const unpacked = path.join(tmp, 'asar');
    asar.extractAll(path.join(out, 'linux-unpacked', 'resources', 'app.asar'), unpacked);
    const stub = path.join(unpacked, 'node_modules', 'electron');
    fs.mkdirSync(stub, { recursive: true });
    fs.writeFileSync(
      path.join(stub, 'index.js'),
      [
        'process.resourcesPath = process.env.STUB_RESOURCES;',
        "const windowPath = () => { throw new Error('the CLI mode reached the window path'); };",
        'exports.app = { isPackaged: true, exit: (c) => process.exit(c), requestSingleInstanceLock: windowPath, whenReady: windowPath, on: windowPath };',
        'exports.BrowserWindow = { getAllWindows: windowPath };',
      ].join('\n'),
    );
    const home = path.join(tmp, 'home');
    const userHome = path.join(tmp, 'user');
    fs.mkdirSync(userHome, { recursive: true });
    const run = (args: string[], input?: string) =>
      spawnSync(process.execPath, [path.join(unpacked, 'dist', 'main', 'index.cjs'), '--ozone-platform=headless', '--cli', ...args], {
        input,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          HOME: userHome,
          SKILLDOCK_HOME: home,
          SKILLDOCK_USER_HOME: userHome,
          STUB_RESOURCES: path.join(out, 'linux-unpacked', 'resources'),
        },
      });
    const version = run(['--version']);
    expect(version.stdout.trim(), version.stderr).toBe(require('../package.json').version);
    expect(version.status).toBe(0);
    // the built-in skills come from the package's resources
    const list = run(['list', '--json']);
    expect(list.status, list.stderr).toBe(0);
    const catalog = JSON.parse(list.stdout) as { roots: Array<{ kind: string; path: string }>; entries: unknown[] };
    expect(catalog.roots.find((r) => r.kind === 'builtin')?.path).toBe(path.join(out, 'linux-unpacked', 'resources', 'skills'));
    expect(catalog.entries.length).toBeGreaterThan(0);
    // the hook: a write into SkillDock's own home is denied in Claude Code's answer format
    const hook = run(
      ['policy', 'check-write', '--hook'],
      JSON.stringify({ tool_name: 'Write', tool_input: { file_path: path.join(home, 'approvals.json'), content: '{}' } }),
    );
    expect(hook.status, hook.stderr).toBe(0);
    expect(JSON.parse(hook.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
    expect(fs.existsSync(path.join(home, 'approvals.json'))).toBe(false);
  });
});
