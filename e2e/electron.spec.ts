// The desktop app's happy path with Playwright's _electron, where an Electron binary can run.
// Here (CI without a downloadable Electron) it reports itself skipped, with the reason.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, test, expect } from '@playwright/test';
import { findElectron } from '../scripts/start.mjs';
import { root } from './app-fixture';
import { attachSkills, createAssistant, importFixtureSkills, type Caller } from './helpers';
import { shot } from './shots';
import { TID, rowId } from '../renderer/src/testids';

const found = findElectron() as { bin?: string; reason?: string };

test('desktop app: import, assistant with three skills, remove one, launch with links on disk', async () => {
  if (!found.bin) console.log(`electron spec SKIPPED: Electron cannot run here: ${found.reason}`);
  test.skip(!found.bin, `Electron cannot run here: ${found.reason}`);
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-electron-'));
  const home = path.join(tmp, 'skilldock-home');
  const userHome = path.join(tmp, 'user-home');
  const scratch = path.join(tmp, 'scratch');
  for (const d of [home, userHome, scratch]) fs.mkdirSync(d, { recursive: true });
  const app = await electron.launch({
    executablePath: found.bin,
    args: [root],
    env: { ...process.env, HOME: userHome, SKILLDOCK_HOME: home, SKILLDOCK_USER_HOME: userHome } as Record<string, string>,
  });
  try {
    const page = await app.firstWindow();
    await expect(page.getByTestId(TID.appShell)).toBeVisible();
    // The page sees only the narrow bridge: no Node, no ipcRenderer.
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    const desktop: Caller = {
      scratch,
      async call<T>(method: string, input: unknown = {}) {
        const r = await page.evaluate(
          ([m, i]) => (globalThis as unknown as { skilldock: Record<string, (x: unknown) => Promise<unknown>> }).skilldock[m as string](i),
          [method, input] as const,
        );
        const result = r as { ok: boolean; value?: T; error?: { message: string } };
        if (!result.ok) throw new Error(`${method}: ${result.error?.message}`);
        return result.value as T;
      },
    };
    const skills = ['alpha-notes', 'beta-review', 'gamma-docs'];
    await importFixtureSkills(desktop, skills);
    await createAssistant(page, 'Desk Helper');
    await attachSkills(page, skills);
    const rows = page.getByTestId(TID.assistantSkills).locator(`[data-testid^="${TID.assistantSkillRow}-"]`);
    await expect(rows).toHaveCount(3);
    await page.getByTestId(rowId(TID.assistantSkillRemove, 'gamma-docs')).click();
    await expect(page.getByTestId(TID.removeConfirm)).toContainText('gamma-docs');
    await page.getByTestId(TID.removeConfirmOk).click();
    await expect(rows).toHaveCount(2);
    await page.getByTestId(TID.assistantLaunch).click();
    await page.getByTestId(TID.launchStart).click();
    const workspace = (await page.getByTestId(TID.launchWorkspace).innerText()).trim();
    for (const s of ['alpha-notes', 'beta-review']) {
      expect(fs.lstatSync(path.join(workspace, '.claude', 'skills', s)).isSymbolicLink()).toBe(true);
    }
    await shot(page, 'electron-launch-result-light-en');
  } finally {
    await app.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
