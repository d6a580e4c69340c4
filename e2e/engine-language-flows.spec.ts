import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { patchSettings } from './helpers';
import { shot } from './shots';
import { TID, rowId, pageId } from '../renderer/src/testids';
import { expectNoEnglish } from './english';

// Engine refusals from assistants, export and undo reach a Chinese or Japanese window in its own
// language (issue 12, item 1): each is provoked through the UI, then the page is checked for any
// English engine sentence.

const WORDS = {
  'zh-CN': { starter: '内置入门助手', exists: '不属于 SkillDock', cannotUndo: '无法撤销' },
  ja: { starter: '組み込みスターター', exists: 'SkillDock のものではありません', cannotUndo: '元に戻せません' },
} as const;

for (const lang of ['zh-CN', 'ja'] as const) {
  test(`in ${lang}: assistant, export and undo refusals speak ${lang}`, async ({ app, page }) => {
    await app.call('createSkill', { name: 'tool-x', description: 'Does a thing. Use when asked.' });
    await patchSettings(app, { language: lang });
    await app.open(page);

    // An assistant named like a built-in starter.
    await page.getByTestId(TID.navAssistants).click();
    await page.getByTestId(TID.assistantNew).click();
    await page.getByTestId(TID.assistantCreateName).fill('Code Reviewer');
    await page.getByTestId(TID.assistantCreateOk).click();
    await expect(page.getByTestId(pageId('assistants')).locator('.arco-alert-error')).toContainText(WORDS[lang].starter);
    await expectNoEnglish(page, 'assistant name taken');
    await shot(page, `engine-language-assistant-taken-light-${lang}`);
    await page.keyboard.press('Escape');

    // Export onto a real folder of the same name that appeared meanwhile.
    await page.getByTestId(TID.navLibrary).click();
    await page.getByTestId(rowId(TID.libraryTab, 'skills')).click();
    await page.getByTestId(rowId(TID.libraryExport, 'tool-x')).click();
    const claude = page.getByTestId(rowId(TID.exportTarget, 'claude'));
    await expect(claude).toHaveAttribute('data-state', 'none');
    const theirs = path.join(app.userHome, '.claude', 'skills', 'tool-x');
    fs.mkdirSync(theirs, { recursive: true });
    fs.writeFileSync(path.join(theirs, 'SKILL.md'), '---\nname: tool-x\ndescription: Someone else made this.\n---\n');
    await claude.locator('.arco-checkbox').click();
    await page.getByTestId(TID.exportOk).click();
    await expect(page.getByTestId(TID.exportDialog)).toContainText(WORDS[lang].exists);
    await expectNoEnglish(page, 'export refused');
    await shot(page, `engine-language-export-refused-light-${lang}`);
    expect(fs.readFileSync(path.join(theirs, 'SKILL.md'), 'utf8')).toContain('Someone else made this.');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(TID.exportDialog)).toHaveCount(0);

    // Undo of the creation after the skill was edited on disk: refused, nothing changed.
    fs.appendFileSync(path.join(app.home, 'library', 'tool-x', 'SKILL.md'), '\nEdited by hand.\n');
    await page.getByTestId(rowId(TID.libraryTab, 'history')).click();
    await page.getByTestId(TID.historyUndo).click();
    await expect(page.getByTestId(pageId('library'))).toContainText(WORDS[lang].cannotUndo);
    await expectNoEnglish(page, 'undo refused');
    await shot(page, `engine-language-undo-refused-light-${lang}`);
    expect(fs.readFileSync(path.join(app.home, 'library', 'tool-x', 'SKILL.md'), 'utf8')).toContain('Edited by hand.');
  });
}
