import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// The CLI as a user runs it: a real `node` child process on a bundle built from the sources under
// test (never a stale dist/), with HOME and SKILLDOCK_HOME in a temp dir of its own.

export const repo = fileURLToPath(new URL('..', import.meta.url));

export interface CliHarness {
  /** The temp dir: `home/` is HOME, `sdhome/` is SKILLDOCK_HOME, `dist/` holds the bundle. */
  base: string;
  cli: string;
  run(args: string[], env?: Record<string, string>): { code: number | null; stdout: string; stderr: string };
  /** The environment `run` uses (for spawning the CLI another way). */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
  done(): void;
}

/** Build the CLI (and the scan worker next to it) into a fresh temp dir. */
export async function cliHarness(prefix: string): Promise<CliHarness> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const out = path.join(base, 'dist');
  const common = {
    bundle: true,
    platform: 'node' as const,
    target: 'node20',
    format: 'esm' as const,
    logLevel: 'error' as const,
    absWorkingDir: repo,
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  };
  await build({ ...common, entryPoints: ['src/cli/entry.ts'], outfile: path.join(out, 'cli.mjs') });
  await build({ ...common, entryPoints: ['src/catalog/analyze-worker.ts'], outfile: path.join(out, 'analyze-worker.mjs') });
  fs.mkdirSync(path.join(base, 'home'));
  const cli = path.join(out, 'cli.mjs');
  const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH ?? '',
    HOME: path.join(base, 'home'),
    SKILLDOCK_HOME: path.join(base, 'sdhome'),
    SKILLDOCK_RESOURCES: path.join(repo, 'resources'),
    NO_COLOR: '1',
    ...extra,
  });
  return {
    base,
    cli,
    env,
    run(args, extra = {}) {
      const r = spawnSync(process.execPath, [cli, ...args], { cwd: base, encoding: 'utf8', env: env(extra), timeout: 60_000 });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    },
    done: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}
