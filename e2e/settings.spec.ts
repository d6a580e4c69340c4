import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { TID, pageId } from '../renderer/src/testids';

test('switching language and theme in Settings applies at once, persists in the engine and survives a reload', async ({ app, page }) => {
  await app.open(page);
  await page.getByTestId(TID.navSettings).click();
  await expect(page.getByTestId(pageId('settings'))).toBeVisible();

  await page.getByTestId(TID.settingsLanguage).click();
  await page.getByRole('option', { name: '简体中文' }).click();
  await expect(page.getByTestId(TID.navSkills)).toHaveText('技能');
  await expect(page.getByTestId(TID.navSettings)).toHaveText('设置');

  await page.getByTestId(TID.settingsThemeDark).click();
  await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');

  const saved = JSON.parse(fs.readFileSync(path.join(app.home, 'settings.json'), 'utf8'));
  expect(saved.data ?? saved).toMatchObject({ language: 'zh-CN', theme: 'dark' });

  // A reload keeps the session (token in sessionStorage) and the settings (in the engine).
  await page.reload();
  await expect(page.getByTestId(TID.appShell)).toBeVisible();
  await expect(page.getByTestId(TID.navSkills)).toHaveText('技能');
  await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');

  await page.getByTestId(TID.navSettings).click();
  await page.getByTestId(TID.settingsThemeLight).click();
  await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
  await page.getByTestId(TID.settingsLanguage).click();
  await page.getByRole('option', { name: 'English' }).click();
  await expect(page.getByTestId(TID.navSkills)).toHaveText('Skills');
  expect(await app.call('getSettings')).toMatchObject({ language: 'en', theme: 'light' });
});

test('a page opened without the token cannot read anything and says how to get in', async ({ app, page }) => {
  await page.goto(app.origin + '/');
  await expect(page.getByTestId(TID.appShell)).toBeVisible();
  // The client's ApiError('unauthorized') message reaches the user.
  await expect(page.getByText(/No access token: open the URL that `skilldock serve` printed/).first()).toBeVisible();
  await expect(page.getByTestId(TID.skillsList).locator(`[data-testid^="${TID.skillRow}-"]`)).toHaveCount(0);
});
