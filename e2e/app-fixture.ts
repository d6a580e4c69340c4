import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const fixturesDir = path.join(root, 'e2e', 'fixtures');
export const screenshotsDir = path.join(root, 'artifacts', 'screenshots');

/** One running `skilldock serve` on its own temporary homes. */
export interface SkillDockApp {
  url: string;
  origin: string;
  token: string;
  /** SKILLDOCK_HOME */
  home: string;
  /** HOME and SKILLDOCK_USER_HOME: agents' user roots live here. */
  userHome: string;
  /** Scratch space outside both homes (things to drop, project folders). */
  scratch: string;
  /** A contract call over the same HTTP API the page uses. */
  call<T = unknown>(method: string, input?: unknown): Promise<T>;
  /** Open the UI and wait until the shell is there. */
  open(page: Page, hash?: string): Promise<void>;
}

async function startServe(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; info: { url: string; origin: string; token: string } }> {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'skilldock.js'), 'serve', '--port', '0', '--json'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const info = await new Promise<{ url: string; origin: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`skilldock serve did not start: ${err}`)), 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line));
      }
    });
    child.on('exit', (code) => reject(new Error(`skilldock serve exited ${code}: ${err}`)));
  });
  return { child, info };
}

export const test = base.extend<{ app: SkillDockApp }>({
  // Playwright reads a fixture's dependencies from this pattern; this one needs none.
  // eslint-disable-next-line no-empty-pattern
  app: async ({}, use) => {
    const scratchRoot = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-e2e-'));
    const home = path.join(scratchRoot, 'skilldock-home');
    const userHome = path.join(scratchRoot, 'user-home');
    const scratch = path.join(scratchRoot, 'scratch');
    for (const d of [home, userHome, scratch]) fs.mkdirSync(d, { recursive: true });
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: userHome, SKILLDOCK_HOME: home, SKILLDOCK_USER_HOME: userHome, NO_COLOR: '1' };
    const { child, info } = await startServe(env);
    const app: SkillDockApp = {
      ...info,
      home,
      userHome,
      scratch,
      async call<T>(method: string, input: unknown = {}) {
        const res = await fetch(`${info.origin}/api/${method}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-skilldock-token': info.token },
          body: JSON.stringify(input),
        });
        const body = (await res.json()) as { ok: boolean; value?: T; error?: { code: string; message: string } };
        if (!body.ok) throw new Error(`${method}: ${body.error?.code} ${body.error?.message}`);
        return body.value as T;
      },
      async open(page, hash = '') {
        await page.goto(`${info.url}${hash ? `&${hash.replace(/^#/, '')}` : ''}`);
        await expect(page.getByTestId('app-shell')).toBeVisible();
      },
    };
    await use(app);
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    fs.rmSync(scratchRoot, { recursive: true, force: true });
  },
});

export { expect };

/** Copy fixture skills (e2e/fixtures/skills/<name>) somewhere and return the paths. */
export function copyFixtureSkills(names: string[], into: string): string[] {
  return names.map((name) => {
    const to = path.join(into, name);
    fs.cpSync(path.join(fixturesDir, 'skills', name), to, { recursive: true });
    return to;
  });
}
