import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { patchSettings, setLanguage } from './helpers';
import { shot } from './shots';
import { TID, pageId, rowId } from '../renderer/src/testids';

// Multi-select on the Library page (issue 28): tick some skills, delete them in one operation, and
// the toast's one Undo brings every one back; then restore from the trash by multi-select. In
// English and Japanese, with a screenshot of the selection in both themes.

const WORDS = {
  en: { deleted: '3 skills moved to the trash', restored: '2 skills restored from the trash' },
  ja: { deleted: '3 件のスキルをゴミ箱に移動しました', restored: '2 件のスキルをゴミ箱から復元しました' },
} as const;

for (const lang of ['en', 'ja'] as const) {
  test(`multi-select delete with one Undo for the batch, and multi-select restore (${lang})`, async ({ app, page }) => {
    for (const name of ['beta-1', 'beta-2', 'beta-3', 'alpha']) await app.call('createSkill', { name, description: `The ${name} skill.` });
    const lib = (n: string) => path.join(app.home, 'library', n);

    await app.open(page);
    await setLanguage(app, page, lang);
    await page.getByTestId(TID.navLibrary).click();
    await expect(page.getByTestId(pageId('library'))).toBeVisible();
    for (const n of ['beta-1', 'beta-2', 'beta-3']) await page.getByTestId(rowId(TID.librarySelect, n)).click();
    await expect(page.getByTestId(TID.libraryBulkDelete)).toBeVisible();
    for (const theme of ['light', 'dark'] as const) {
      await patchSettings(app, { theme });
      if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
      else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
      await shot(page, `library-bulk-${theme}-${lang}`);
    }
    await patchSettings(app, { theme: 'light' });

    await page.getByTestId(TID.libraryBulkDelete).click();
    await expect(page.locator('.arco-notification').last()).toContainText(WORDS[lang].deleted);
    await expect(page.getByTestId(rowId(TID.libraryRow, 'beta-1'))).toBeHidden();
    for (const n of ['beta-1', 'beta-2', 'beta-3']) expect(fs.existsSync(lib(n))).toBe(false);
    await expect(page.getByTestId(rowId(TID.libraryRow, 'alpha'))).toBeVisible();
    // one journal entry for the three
    const history = await app.call<{ entries: Array<{ op: string }> }>('journal', {});
    expect(history.entries.filter((e) => e.op === 'delete')).toHaveLength(1);

    // one Undo brings all three back
    await page.getByTestId(TID.toastUndo).last().click();
    for (const n of ['beta-1', 'beta-2', 'beta-3']) await expect(page.getByTestId(rowId(TID.libraryRow, n))).toBeVisible();
    for (const n of ['beta-1', 'beta-2', 'beta-3']) expect(fs.existsSync(path.join(lib(n), 'SKILL.md'))).toBe(true);

    // delete two again, then restore them from the trash by multi-select
    await page.getByTestId(TID.librarySelectAll).click();
    await page.getByTestId(rowId(TID.librarySelect, 'alpha')).click();
    await page.getByTestId(rowId(TID.librarySelect, 'beta-3')).click();
    await page.getByTestId(TID.libraryBulkDelete).click();
    await expect(page.getByTestId(rowId(TID.libraryRow, 'beta-2'))).toBeHidden();
    await page.getByTestId(rowId(TID.libraryTab, 'trash')).click();
    const trash = await app.call<{ items: Array<{ id: string; name: string }> }>('listTrash', {});
    for (const e of trash.items.filter((x) => x.name === 'beta-1' || x.name === 'beta-2').slice(0, 2))
      await page.getByTestId(rowId(TID.trashSelect, e.id)).click();
    await page.getByTestId(TID.trashBulkRestore).click();
    await expect(page.locator('.arco-notification').last()).toContainText(WORDS[lang].restored);
    await expect
      .poll(() => fs.existsSync(path.join(lib('beta-1'), 'SKILL.md')) && fs.existsSync(path.join(lib('beta-2'), 'SKILL.md')))
      .toBe(true);
  });
}

test('multi-select on the Skills page: tick two library skills, delete both, one Undo', async ({ app, page }) => {
  for (const name of ['gamma-1', 'gamma-2', 'delta']) await app.call('createSkill', { name, description: `The ${name} skill.` });
  await app.open(page);
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/gamma-1'))).toBeVisible();
  await page.getByTestId(rowId(TID.skillSelect, 'library/gamma-1')).click();
  await page.getByTestId(rowId(TID.skillSelect, 'library/gamma-2')).click();
  // ticking selects, it does not open the skill's drawer
  await expect(page.getByTestId(TID.libraryBulk)).toContainText('2 selected');
  await shot(page, 'skills-bulk-light-en');
  await page.getByTestId(TID.libraryBulkDelete).click();
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/gamma-1'))).toBeHidden();
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/gamma-2'))).toBeHidden();
  await page.getByTestId(TID.toastUndo).last().click();
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/gamma-1'))).toBeVisible();
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/gamma-2'))).toBeVisible();
  expect(fs.existsSync(path.join(app.home, 'library', 'gamma-2', 'SKILL.md'))).toBe(true);
});
