// Skill editor, in a real Chromium against `skilldock serve`: on a 500-line SKILL.md, from the
// keydown of a keystroke that breaks (or fixes) the `name:` line to the painted inline diagnostic
// at that line, debounce and the engine's lint round trip included; median of alternating
// break/fix keystrokes. The floor is the bare lint round trip (same request, no page, no editor).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.mjs';

const LINES = 500;
const TARGET_MS = 150;
const PAIRS = 8;
const NAME = 'big-skill';

function skillText() {
  const head = `---\nname: ${NAME}\ndescription: A long skill used to time the editor. Use when measuring.\n---\n\n# Big skill\n\n`;
  const body = [];
  for (let i = 0; body.length + 7 < LINES; i++) {
    body.push(
      i % 25 === 0
        ? `## Section ${i / 25 + 1}`
        : `- Step ${i}: read \`references/notes.md\` when the input has more than ${i} rows, then say what you did.`,
    );
  }
  return head + body.join('\n') + '\n';
}

function startServe(root, env) {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'skilldock.js'), 'serve', '--port', '0', '--json'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const info = new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`skilldock serve exited ${code}: ${err}`)));
  });
  return { child, info };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function editorBench({ log, root }) {
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-bench-editor-'));
  const home = path.join(tmp, 'home');
  const userHome = path.join(tmp, 'user');
  const dir = path.join(home, 'library', NAME);
  fs.mkdirSync(path.join(dir, 'references'), { recursive: true });
  fs.mkdirSync(userHome, { recursive: true });
  const text = skillText();
  fs.writeFileSync(path.join(dir, 'SKILL.md'), text);
  fs.writeFileSync(path.join(dir, 'references', 'notes.md'), '# Notes\n');
  const env = { ...process.env, HOME: userHome, SKILLDOCK_HOME: home, SKILLDOCK_USER_HOME: userHome };
  const { child, info } = startServe(root, env);
  let browser;
  try {
    const { url, origin, token } = await info;

    // Floor: the lint request alone, from outside the page.
    const call = async (content) => {
      const t0 = performance.now();
      const res = await fetch(`${origin}/api/lintSkillBuffer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-skilldock-token': token },
        body: JSON.stringify({ skill: NAME, content }),
      });
      const body = await res.json();
      if (!body.ok) throw new Error(body.error?.message);
      return performance.now() - t0;
    };
    const broken = text.replace(`name: ${NAME}`, `name: ${NAME}X`);
    const floor = [];
    for (let i = 0; i < PAIRS * 2; i++) floor.push(await call(i % 2 ? text : broken));

    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await page.goto(url);
    await page.getByTestId('nav-library').click();
    await page.getByTestId(`library-edit-${NAME}`).click();
    const content = page.getByTestId('editor-code').locator('.cm-content');
    await content.locator('.cm-line').nth(1).click();
    await page.keyboard.press('End');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="editor-lint-status"]')?.getAttribute('data-seq')) > 0);

    const times = [];
    for (let k = 0; k < PAIRS; k++) {
      for (const [key, wantNote] of [
        ['X', true],
        ['Backspace', false],
      ]) {
        await page.evaluate((wantNote) => {
          const w = window;
          w.__ed = {};
          document.addEventListener('keydown', () => (w.__ed.down = performance.now()), { capture: true, once: true });
          const ok = () =>
            Boolean(document.querySelector('[data-testid="editor-inline-note"][data-line="2"][data-code="name-invalid"]')) === wantNote;
          new MutationObserver((_m, obs) => {
            if (w.__ed.down !== undefined && ok()) {
              obs.disconnect();
              requestAnimationFrame(() => setTimeout(() => (w.__ed.painted = performance.now()), 0));
            }
          }).observe(document.body, { childList: true, subtree: true, attributes: true });
        }, wantNote);
        await page.keyboard.press(key);
        await page.waitForFunction(() => window.__ed.painted !== undefined, null, { timeout: 30_000, polling: 10 });
        times.push(await page.evaluate(() => window.__ed.painted - window.__ed.down));
        await page.waitForTimeout(100);
      }
    }
    const ours = median(times);
    const base = median(floor);
    log(
      `editor keystroke to inline diagnostics, ${LINES}-line SKILL.md: ${Math.round(ours)} ms median of ${times.length} (slowest ${Math.round(Math.max(...times))} ms; floor: bare lint round trip ${Math.round(base)} ms, ${(ours / base).toFixed(1)}x) (target <= ${TARGET_MS} ms) ${ours <= TARGET_MS ? 'OK' : 'OVER'}`,
    );
  } finally {
    await browser?.close();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
