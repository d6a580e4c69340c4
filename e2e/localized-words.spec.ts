import type { Page } from '@playwright/test';
import { test, expect } from './app-fixture';
import { patchSettings } from './helpers';
import { shot } from './shots';
import { TID, pageId, rowId } from '../renderer/src/testids';

// Issue 23, items 12 and 14, in the browser at 1440x900 in Japanese and Simplified Chinese, light
// and dark: every tab of the editor's side panel is in view with no scroll arrows, and the shipped
// agent named by a phrase ("Any other agent (.agents/skills)") is worded in the user's language in
// the editor's Agents tab and the Export dialog.

/** Every tab title lies inside the tab bar, and Arco shows no scroll arrows. */
async function expectTabsInView(page: Page, where: string): Promise<void> {
  const side = page.locator('.editor-side');
  await expect(side.locator('.arco-tabs-header-title')).toHaveCount(4);
  await expect(side.locator('.arco-tabs-header-overflow-scroll'), `${where}: scroll arrows`).toHaveCount(0);
  const bar = (await side.locator('.arco-tabs-header-nav').boundingBox())!;
  for (const title of await side.locator('.arco-tabs-header-title').all()) {
    const box = (await title.boundingBox())!;
    expect(box.x, `${where}: ${await title.innerText()} starts inside`).toBeGreaterThanOrEqual(bar.x - 0.5);
    expect(box.x + box.width, `${where}: ${await title.innerText()} ends inside`).toBeLessThanOrEqual(bar.x + bar.width + 0.5);
  }
}

for (const lang of ['ja', 'zh-CN'] as const) {
  test(`editor tabs fit and agent names are worded (${lang})`, async ({ app, page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await patchSettings(app, { language: lang });
    await app.call('createSkill', { name: 'tab-check', template: 'plain', description: 'Checks the tabs.' });
    await app.open(page);
    for (const theme of ['light', 'dark'] as const) {
      await patchSettings(app, { theme });
      if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
      else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');

      await page.getByTestId(TID.navLibrary).click();
      await expect(page.getByTestId(pageId('library'))).toBeVisible();
      await page.getByTestId(rowId(TID.libraryTab, 'skills')).click();
      await page.getByTestId(rowId(TID.libraryEdit, 'tab-check')).click();
      await expect(page.getByTestId(TID.editorPage)).toBeVisible();
      await expectTabsInView(page, `${lang} ${theme}`);

      await page.getByTestId(rowId(TID.editorPanelTab, 'agents')).click();
      const generic = page.getByTestId(rowId(TID.editorAgentRow, 'generic'));
      await expect(generic).toBeVisible();
      await expect(generic).not.toContainText('Any other agent');
      await expect(generic).toContainText('.agents/skills');
      await shot(page, `editor-tabs-${theme}-${lang}`);
      await page.getByTestId(rowId(TID.editorPanelTab, 'preview')).click();
      await expect(page.getByTestId(TID.editorPreview)).toBeVisible();

      await page.getByTestId(TID.navLibrary).click();
      await page.getByTestId(rowId(TID.libraryTab, 'skills')).click();
      await page.getByTestId(rowId(TID.libraryExport, 'tab-check')).click();
      const target = page.getByTestId(rowId(TID.exportTarget, 'generic'));
      await expect(target).toBeVisible();
      await expect(target).not.toContainText('Any other agent');
      await shot(page, `export-dialog-${theme}-${lang}`);
      await page.keyboard.press('Escape');
      await expect(target).toHaveCount(0);
    }
  });
}
