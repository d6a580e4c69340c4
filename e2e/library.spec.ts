import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { setLanguage } from './helpers';
import { shot } from './shots';
import { TID, pageId, rowId } from '../renderer/src/testids';

// The library from the GUI in Chromium, English and Chinese: adopt from an agent folder, export
// with a name clash (nothing replaced), delete naming the assistants that use the skill, and a
// built-in skill opened read-only, then copied to the library to edit.

function writeSkill(dir: string, name: string, description: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nDo it.\n`);
}

for (const lang of ['en', 'zh-CN'] as const) {
  test(`adopt, export with a clash, delete with users, copy a built-in to edit (${lang})`, async ({ app, page }) => {
    writeSkill(path.join(app.userHome, '.claude', 'skills', 'from-claude'), 'from-claude', 'Made in Claude Code.');
    await app.call('createSkill', { name: 'shared-tool', description: 'Shared between agents.' });
    const geminiCopy = path.join(app.userHome, '.gemini', 'skills', 'shared-tool');
    writeSkill(geminiCopy, 'shared-tool', 'A different skill that happens to share the name.');
    await app.call('createAssistant', { name: 'Tool User', agent: 'claude', skills: ['shared-tool'], rules: '' });

    await app.open(page);
    // Changed from outside as soon as the page is up, while it may still be connecting its event
    // stream: the page reads its state again when the stream opens, so the change reaches it.
    await setLanguage(app, page, lang);
    // The first screen offers what the agents already have; adopt it, one click for all
    await expect(page.getByTestId(TID.adoptBanner)).toContainText('1');
    await page.getByTestId(TID.adoptBannerReview).click();
    await expect(page.getByTestId(pageId('library'))).toBeVisible();
    await expect(page.getByTestId(rowId(TID.adoptRow, 'from-claude'))).toHaveAttribute('data-in-library', 'no');
    await shot(page, `library-adopt-${lang}`);
    await page.getByTestId(TID.adoptAll).click();
    await expect(page.getByTestId(rowId(TID.adoptRow, 'from-claude'))).toHaveAttribute('data-in-library', 'same');
    // Nothing is left to adopt: no "Adopt all 0 skills" button (issue 23 item 15).
    await expect(page.getByTestId(TID.adoptAll)).toHaveCount(0);
    await expect(page.getByTestId(TID.adoptBanner)).toHaveCount(0);
    expect(fs.existsSync(path.join(app.home, 'library', 'from-claude', 'SKILL.md'))).toBe(true);

    // Export: what is there first; the clash is shown and cannot be ticked
    await page.getByTestId(rowId(TID.libraryTab, 'skills')).click();
    await page.getByTestId(rowId(TID.libraryExport, 'shared-tool')).click();
    const gemini = page.getByTestId(rowId(TID.exportTarget, 'gemini'));
    await expect(gemini).toHaveAttribute('data-state', 'different');
    await expect(gemini.locator('input[type="checkbox"]')).toBeDisabled();
    const claude = page.getByTestId(rowId(TID.exportTarget, 'claude'));
    await expect(claude).toHaveAttribute('data-state', 'none');
    await shot(page, `library-export-${lang}`);
    await claude.locator('.arco-checkbox').click();
    await page.getByTestId(TID.exportOk).click();
    await expect(claude).toHaveAttribute('data-state', 'same');
    expect(fs.readFileSync(path.join(app.userHome, '.claude', 'skills', 'shared-tool', 'SKILL.md'), 'utf8')).toContain(
      'Shared between agents.',
    );
    expect(fs.readFileSync(path.join(geminiCopy, 'SKILL.md'), 'utf8')).toContain('A different skill');
    // The export button is disabled after a run: focus goes to Close, so Escape still closes.
    await expect(page.getByTestId(TID.exportClose)).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(TID.exportDialog)).toHaveCount(0);

    // Delete names the assistant that uses the skill
    await page.getByTestId(rowId(TID.libraryDelete, 'shared-tool')).click();
    await expect(page.getByTestId(TID.deleteUsers)).toContainText('Tool User');
    await shot(page, `library-delete-${lang}`);
    await page.keyboard.press('Enter'); // the dialogs take Enter and Escape
    await expect(page.getByTestId(rowId(TID.libraryRow, 'shared-tool'))).toHaveCount(0);
    await page.getByTestId(TID.toastUndo).last().click(); // the export toast may still be fading out
    await expect(page.getByTestId(rowId(TID.libraryRow, 'shared-tool'))).toBeVisible();

    // Restoring a name that is taken again asks; Replace keeps both versions (the current one goes to the trash)
    await app.call('deleteSkill', { name: 'from-claude' });
    await app.call('createSkill', { name: 'from-claude', description: 'A new one with the old name.' });
    await page.getByTestId(rowId(TID.libraryTab, 'trash')).click();
    await page.getByTestId(TID.trashList).locator('[data-name="from-claude"]').getByRole('button').click();
    await expect(page.getByTestId(TID.restoreConflict)).toContainText('from-claude');
    await shot(page, `library-restore-conflict-${lang}`);
    await page.getByTestId(TID.restoreReplace).click();
    const restored = path.join(app.home, 'library', 'from-claude', 'SKILL.md');
    await expect.poll(() => (fs.existsSync(restored) ? fs.readFileSync(restored, 'utf8') : '')).toContain('Made in Claude Code.');
    await expect(page.getByTestId(TID.trashList).locator('[data-name="from-claude"]')).toHaveCount(1); // the newer one, now in the trash
    // ...and that newer one can come back beside it, under another name (folder and name: both)
    await page.getByTestId(TID.trashList).locator('[data-name="from-claude"]').getByRole('button').click();
    await expect(page.getByTestId(TID.restoreConflict)).toBeVisible();
    await page.getByTestId(TID.restoreAsName).fill('from-claude-new');
    await shot(page, `library-restore-as-${lang}`);
    await page.getByTestId(TID.restoreAs).click();
    const renamed = path.join(app.home, 'library', 'from-claude-new', 'SKILL.md');
    // The folder arrives first and its name line is rewritten after (journaled), so wait for both.
    await expect.poll(() => (fs.existsSync(renamed) ? fs.readFileSync(renamed, 'utf8') : '')).toMatch(/^name: from-claude-new$/m);
    expect(fs.readFileSync(renamed, 'utf8')).toContain('A new one with the old name.');
    await expect(page.getByTestId(TID.trashList).locator('[data-name="from-claude"]')).toHaveCount(0);
    await page.getByTestId(rowId(TID.libraryTab, 'skills')).click();

    // A built-in skill opens read-only; "Copy to library and edit" makes it editable
    await page.getByTestId(TID.navSkills).click();
    await page.getByTestId(rowId(TID.skillRow, 'builtin/writing-skills')).click();
    await page.getByTestId(TID.skillOpenEditor).click();
    await expect(page.getByTestId(TID.editorReadOnly)).toBeVisible();
    await expect(page.getByTestId(TID.editorSave)).toHaveCount(0);
    await shot(page, `editor-read-only-${lang}`);
    await page.getByTestId(TID.editorCopyToLibrary).click();
    await expect(page.getByTestId(TID.editorPage)).toHaveAttribute('data-skill', 'writing-skills');
    await expect(page.getByTestId(TID.editorReadOnly)).toHaveCount(0);
    await expect(page.getByTestId(TID.editorSave)).toBeVisible();
    expect(fs.existsSync(path.join(app.home, 'library', 'writing-skills', 'SKILL.md'))).toBe(true);
    await expect(page.getByText('{{')).toHaveCount(0);
  });
}
