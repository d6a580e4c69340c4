import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, type SkillDockApp } from './app-fixture';
import { patchSettings, setLanguage } from './helpers';
import { shot } from './shots';
import { TID, pageId, rowId } from '../renderer/src/testids';

// Undo you can trust (issue 23, items 1-3), in Chromium, in English and Chinese: a toast undoes
// its own operation or says why it cannot, and the editor's Undo reverts that file's last save only.

const WORDS = {
  en: { undoExport: 'Undo export of tool to Claude Code', already: 'was already undone', noSave: 'No save of this file to undo' },
  'zh-CN': { undoExport: '撤销 tool 导出到 Claude Code', already: '已经撤销过了', noSave: '此文件没有可撤销的保存' },
} as const;

interface Entry {
  id: string;
  op: string;
  state?: string;
}
const journal = async (app: SkillDockApp) => (await app.call<{ entries: Entry[] }>('journal', {})).entries;

function writeSkill(dir: string, name: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n\nDo it.\n`);
  return dir;
}

async function openLibrary(page: Page): Promise<void> {
  await page.getByTestId(TID.navLibrary).click();
  await expect(page.getByTestId(pageId('library'))).toBeVisible();
}

for (const lang of ['en', 'zh-CN'] as const) {
  test(`in ${lang}: a toast undoes its own operation; once it was undone from History it says so and undoes nothing else`, async ({
    app,
    page,
  }) => {
    // An earlier operation that a toast must never undo instead: a restore from the trash
    await app.call('createSkill', { name: 'tool', description: 'A tool.' });
    await app.call('deleteSkill', { name: 'tool' });
    const [trashed] = (await app.call<{ items: Array<{ id: string }> }>('listTrash', {})).items;
    await app.call('restoreSkill', { id: trashed.id });

    await app.open(page);
    await setLanguage(app, page, lang);
    await openLibrary(page);
    await page.getByTestId(rowId(TID.libraryExport, 'tool')).click();
    await page.getByTestId(rowId(TID.exportTarget, 'claude')).locator('.arco-checkbox').click();
    await page.getByTestId(TID.exportOk).click();
    const exported = path.join(app.userHome, '.claude', 'skills', 'tool');
    await expect.poll(() => fs.existsSync(exported)).toBe(true);
    await page.keyboard.press('Escape');
    // The toast names the operation it undoes
    const toastUndo = page.getByTestId(TID.toastUndo);
    await expect(toastUndo).toHaveText(WORDS[lang].undoExport);

    // Undo the export from History, while its toast is still up
    const exportId = (await journal(app)).find((e) => e.op === 'export')!.id;
    await page.getByTestId(rowId(TID.libraryTab, 'history')).click();
    const rowUndo = page.getByTestId(rowId(TID.historyRowUndo, exportId));
    await expect(rowUndo).toHaveAttribute('aria-label', WORDS[lang].undoExport);
    await rowUndo.click();
    await expect(page.getByTestId(rowId(TID.historyRow, exportId))).toHaveAttribute('data-state', 'undone');
    expect(fs.existsSync(exported)).toBe(false);

    // The export's toast: already undone, said plainly; the restore stays
    await toastUndo.click();
    await expect(page.getByTestId(TID.toastRefused)).toContainText(WORDS[lang].already);
    const after = await journal(app);
    expect(after.find((e) => e.op === 'restore')!.state).toBe('done');
    expect(after.filter((e) => e.op === 'undo')).toHaveLength(1);
    expect(fs.existsSync(path.join(app.home, 'library', 'tool', 'SKILL.md'))).toBe(true);
  });

  test(`in ${lang}: the editor's Undo reverts this file's last save only, and offers nothing before a save`, async ({ app, page }) => {
    // Five skills imported earlier: the editor's Undo must never take them away
    const five = ['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => writeSkill(path.join(app.scratch, 'five', n), n));
    await app.call('importPaths', { paths: five });
    await app.call('createSkill', { name: 'notes', description: 'Keeps notes.' });
    const file = path.join(app.home, 'library', 'notes', 'SKILL.md');
    const original = fs.readFileSync(file, 'utf8');

    await app.open(page);
    await setLanguage(app, page, lang);
    await openLibrary(page);
    await page.getByTestId(rowId(TID.libraryEdit, 'notes')).click();
    await expect(page.getByTestId(TID.editorPage)).toBeVisible();
    const undo = page.getByTestId(TID.editorUndo);
    await expect(undo).toBeDisabled();
    await expect(undo).toHaveText(WORDS[lang].noSave);

    const code = page.getByTestId(TID.editorCode).locator('.cm-content');
    await code.locator('.cm-line').last().click();
    await page.keyboard.press('End');
    await page.keyboard.type('\nA line to take back.');
    await page.keyboard.press('Control+s');
    await expect.poll(() => fs.readFileSync(file, 'utf8')).toContain('A line to take back.');
    // Another operation after the save: the newest is no longer the save
    await app.call('importPaths', { paths: [writeSkill(path.join(app.scratch, 'later'), 'later')] });

    await expect(undo).toBeEnabled();
    await expect(undo).toContainText('SKILL.md');
    await undo.click();
    await expect.poll(() => fs.readFileSync(file, 'utf8')).toBe(original);
    for (const n of ['a1', 'a2', 'a3', 'a4', 'a5', 'later'])
      expect(fs.existsSync(path.join(app.home, 'library', n, 'SKILL.md'))).toBe(true);
    await expect(undo).toBeDisabled();
  });
}

for (const lang of ['ja', 'zh-CN'] as const) {
  test(`History and an undo toast in ${lang}, light and dark`, async ({ app, page }) => {
    await app.call('importPaths', { paths: ['one', 'two', 'three'].map((n) => writeSkill(path.join(app.scratch, n), n)) });
    await app.call('exportSkill', { name: 'one', agent: 'claude', mode: 'link' });
    await app.call('createSkill', { name: 'tool', description: 'A tool.' });
    await app.call('undo', {});
    await app.open(page);
    await setLanguage(app, page, lang);
    await openLibrary(page);
    await page.getByTestId(rowId(TID.libraryTab, 'history')).click();
    await expect(page.getByTestId(TID.historyList).locator('[data-state="undone"]')).toHaveCount(1);
    for (const theme of ['light', 'dark'] as const) {
      await patchSettings(app, { theme });
      if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
      else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
      await shot(page, `undo-history-${theme}-${lang}`);
    }
    await patchSettings(app, { theme: 'light' });
    await page.getByTestId(rowId(TID.libraryTab, 'skills')).click();
    await page.getByTestId(rowId(TID.libraryDelete, 'two')).click();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(TID.toastUndo)).toBeVisible();
    await shot(page, `undo-toast-light-${lang}`);
    await page.getByTestId(TID.toastUndo).click();
    await expect(page.getByTestId(TID.toastRedo)).toBeVisible();
    await patchSettings(app, { theme: 'dark' });
    await shot(page, `undo-toast-redo-dark-${lang}`);
  });
}
