// Skills page with 10,000 skills in a real Chromium against `skilldock serve`:
//   first render: from the moment the catalog response is parsed in the page to the first painted rows;
//   search keystroke: from keydown to the painted, filtered list (100 matches → 10 and back), median.
//   first paint from navigation (issue 16): from the navigation's start to the first painted rows of a
//   fresh load (server up, catalog scanned), in English and in Japanese, with the scripts it fetched first.
// All are timed inside the page (performance.now), so browser start and catalog scan don't count.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium.mjs';

const COUNT = 10_000;
const TARGET_RENDER_MS = 1500;
const TARGET_KEY_MS = 100;
const KEYSTROKE_PAIRS = 6;

function writeSkills(libraryDir) {
  for (let i = 0; i < COUNT; i++) {
    const name = `bench-skill-${String(i).padStart(5, '0')}`;
    const dir = path.join(libraryDir, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'SKILL.md'),
      `---\nname: ${name}\ndescription: Benchmark skill number ${i} for list rendering. Use when measuring the UI.\n---\n\n# ${name}\n\nBody.\n`,
    );
  }
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

// Runs in the page before any app code.
function instrument() {
  const w = window;
  w.__sd = {};
  const json = Response.prototype.json;
  Response.prototype.json = async function () {
    const value = await json.call(this);
    if (this.url.endsWith('/api/listCatalog') && w.__sd.data === undefined && value && value.ok) w.__sd.data = performance.now();
    return value;
  };
  const afterPaint = (key) => requestAnimationFrame(() => setTimeout(() => (w.__sd[key] = performance.now()), 0));
  new MutationObserver((_m, obs) => {
    if (w.__sd.data !== undefined && document.querySelector('[data-testid^="skill-row-"]')) {
      w.__sd.rows = performance.now();
      afterPaint('rowsPainted');
      obs.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
}

/**
 * The initial script, measured in the page by the browser's own resource timing: every script
 * fetched before the app first renders (main.tsx marks `skilldock:first-render` once the entry, its
 * imports and the active language's words are in), i.e. what the first paint waits for, whatever
 * chunk it sits in. Also counted apart: scripts fetched after that but before the rows were painted
 * (the Skills page's filters and Import menu, fetched alongside the catalog; the paint does not wait
 * for them). Other pages, dialogs and languages are fetched later and do not count.
 */
function scriptBytesBeforePaint() {
  const paint = window.__sd.rowsPainted;
  const render = performance.getEntriesByName('skilldock:first-render')[0]?.startTime ?? paint;
  const scripts = performance.getEntriesByType('resource').filter((e) => /\.m?js(\?|$)/.test(new URL(e.name).pathname));
  const sum = (list) => list.reduce((n, e) => n + (e.decodedBodySize || e.encodedBodySize), 0);
  const blocking = scripts.filter((e) => e.responseEnd <= render);
  const beforePaint = scripts.filter((e) => e.responseEnd <= paint);
  return {
    bytes: sum(blocking),
    files: blocking.length,
    parallelBytes: sum(beforePaint) - sum(blocking),
    parallelFiles: beforePaint.length - blocking.length,
  };
}

/** A fresh load of the Skills page from navigation, three times: the median paint and what it loaded. */
async function firstPaints(page) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    await page.reload();
    await page.waitForFunction(() => window.__sd && window.__sd.rowsPainted !== undefined, null, { timeout: 300_000, polling: 50 });
    runs.push({ ms: await page.evaluate(() => window.__sd.rowsPainted), ...(await page.evaluate(scriptBytesBeforePaint)) });
  }
  runs.sort((x, y) => x.ms - y.ms);
  return runs[1];
}

/**
 * Waits (at most 60 s) until the server process has used under 10% of a core for a whole second:
 * after its start and the first page load it works for seconds (first scan, index write, the risk
 * and agent views of 10,000 skills), and a first paint measured then times that work, not the page
 * (measured: 1.5-1.9 s to the first rows then, 0.4-0.5 s once idle). Linux /proc; elsewhere no wait.
 * Returns the seconds waited.
 */
async function serverIdle(pid) {
  const stat = `/proc/${pid}/stat`;
  if (!fs.existsSync(stat)) return 0;
  const cpuMs = () => {
    const f = fs.readFileSync(stat, 'utf8').split(') ')[1].split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
  };
  const start = Date.now();
  while (Date.now() - start < 60_000) {
    const before = cpuMs();
    await new Promise((r) => setTimeout(r, 1000));
    if (cpuMs() - before < 100) break;
  }
  return (Date.now() - start) / 1000;
}

async function setLanguage(url, language) {
  const token = decodeURIComponent(/[#&]token=([^&]+)/.exec(url)[1]);
  const res = await fetch(new URL('/api/updateSettings', url), {
    method: 'POST',
    headers: { 'x-skilldock-token': token, 'content-type': 'application/json' },
    body: JSON.stringify({ language }),
  });
  if (!res.ok) throw new Error(`updateSettings ${language}: HTTP ${res.status}`);
}

export default async function uiBench({ log, root }) {
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-bench-ui-'));
  const home = path.join(tmp, 'home');
  const userHome = path.join(tmp, 'user');
  fs.mkdirSync(userHome, { recursive: true });
  writeSkills(path.join(home, 'library'));
  const env = { ...process.env, HOME: userHome, SKILLDOCK_HOME: home, SKILLDOCK_USER_HOME: userHome };
  const { child, info } = startServe(root, env);
  let browser;
  try {
    const { url } = await info;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
    await page.addInitScript(instrument);
    await page.goto(url);
    await page.waitForFunction(() => window.__sd && window.__sd.rowsPainted !== undefined, null, { timeout: 300_000, polling: 50 });
    const firstRender = await page.evaluate(() => window.__sd.rowsPainted - window.__sd.data);
    const total = await page.getByTestId('skills-count').innerText();
    const search = page.getByTestId('skills-search').locator('input').or(page.locator('input[data-testid="skills-search"]')).first();
    await search.click();
    await search.fill('bench-skill-007');
    await page.waitForFunction(() => /^100 of /.test(document.querySelector('[data-testid="skills-count"]')?.textContent ?? ''), null, {
      timeout: 30_000,
    });
    // Each keystroke: keydown → the count and the rows both show the answer → next paint. Typing '7'
    // narrows 100 matches to 10; Backspace widens back to 100 (a rescan of all 10,000). The first
    // keystroke runs colder than the rest, so it is printed too; the verdict uses the median.
    const times = [];
    for (let k = 0; k < KEYSTROKE_PAIRS; k++) {
      for (const [key, want] of [
        ['7', 10],
        ['Backspace', 100],
      ]) {
        await page.evaluate((want) => {
          const w = window;
          w.__sd.key = {};
          document.addEventListener('keydown', () => (w.__sd.key.down = performance.now()), { capture: true, once: true });
          const count = document.querySelector('[data-testid="skills-count"]');
          const rowsOk = (n) => (want === 10 ? n <= 10 : n > 10);
          new MutationObserver((_m, obs) => {
            const rows = document.querySelectorAll('[data-testid^="skill-row-bench"], [data-testid^="skill-row-library/bench"]').length;
            if (new RegExp(`^${want} of `).test(count.textContent ?? '') && rowsOk(rows)) {
              obs.disconnect();
              requestAnimationFrame(() => setTimeout(() => (w.__sd.key.painted = performance.now()), 0));
            }
          }).observe(document.body, { childList: true, subtree: true, characterData: true });
        }, want);
        await page.keyboard.press(key);
        await page.waitForFunction(() => window.__sd.key.painted !== undefined, null, { timeout: 30_000, polling: 20 });
        times.push(await page.evaluate(() => window.__sd.key.painted - window.__sd.key.down));
        await page.waitForTimeout(50);
      }
    }
    const sorted = [...times].sort((x, y) => x - y);
    const keystroke = sorted[Math.floor(sorted.length / 2)];
    const first = times[0];
    const slowest = sorted[sorted.length - 1];

    log(
      `ui skills page ${COUNT} skills (${total}): first render ${Math.round(firstRender)} ms after data arrives (target <= ${TARGET_RENDER_MS} ms) ${firstRender <= TARGET_RENDER_MS ? 'OK' : 'OVER'}`,
    );
    // Issue 16: first paint of the Skills page from navigation (performance.now() counts from the
    // navigation's start), with the server already up and its catalog scanned: a fresh page load. Measured
    // after the keystrokes, when the server is idle (right after the first load it is still busy).
    const idleEn = await serverIdle(child.pid);
    const en = await firstPaints(page);
    // The same in Japanese (the largest locale), for a window whose OS and settings say ja.
    await setLanguage(url, 'ja');
    const jaPage = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'ja-JP' });
    await jaPage.addInitScript(instrument);
    await jaPage.goto(url);
    await jaPage.waitForFunction(() => window.__sd && window.__sd.rowsPainted !== undefined, null, { timeout: 300_000, polling: 50 });
    const idleJa = await serverIdle(child.pid);
    const ja = await firstPaints(jaPage);
    await jaPage.close();
    for (const [lang, run, idle] of [
      ['en', en, idleEn],
      ['ja', ja, idleJa],
    ]) {
      log(
        `ui skills page first paint from navigation (${COUNT} skills, ${lang}, rows painted, median of 3 reloads, server idle after ${idle.toFixed(0)} s): ${Math.round(run.ms)} ms (target <= 1000 ms) ${run.ms <= 1000 ? 'OK' : 'OVER'}`,
      );
      log(
        `ui initial script (${lang}: the ${run.files} scripts fetched before the first render): ${(run.bytes / 1e6).toFixed(2)} MB (target <= 0.60 MB, half of the 1.2 MB the issue measured) ${run.bytes <= 0.6e6 ? 'OK' : 'OVER'}; fetched alongside the catalog, not waited for: ${(run.parallelBytes / 1e6).toFixed(2)} MB in ${run.parallelFiles} scripts`,
      );
    }
    log(
      `ui skills search keystroke at ${COUNT} skills: ${Math.round(keystroke)} ms to the painted result, median of ${times.length} (first ${Math.round(first)} ms, slowest ${Math.round(slowest)} ms) (target <= ${TARGET_KEY_MS} ms) ${keystroke <= TARGET_KEY_MS ? 'OK' : 'OVER'}`,
    );
  } finally {
    await browser?.close();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r() : child.once('exit', r)));
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
