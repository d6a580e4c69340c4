import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { patchSettings } from './helpers';
import { shot } from './shots';
import { TID, rowId, pageId } from '../renderer/src/testids';
import { expectNoEnglish } from './english';
import { dragPathsOnto } from './drag';

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
    // The refusal shows inside the dialog, not behind its mask.
    await expect(page.getByTestId(TID.assistantCreateError)).toContainText(WORDS[lang].starter);
    await expect(page.getByTestId(TID.assistantCreateError)).toBeInViewport();
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

// Input the engine's schema refuses, and a drop the upload refuses (issue 12): zod's English and the
// upload's English never reach the window; the field, its limit and the dropped names do.
const REFUSED = {
  'zh-CN': { tooLong: '名称太长了（最多 100 个字符）', twins: '只有大小写或重音不同', failed: '导入失败' },
  ja: {
    tooLong: '名前が長すぎます（最大 100 文字）',
    twins: '大文字・小文字やアクセントしか違わない',
    failed: 'インポートできませんでした',
  },
} as const;

for (const lang of ['zh-CN', 'ja'] as const) {
  test(`in ${lang}: a name the schema refuses and a refused upload speak ${lang}`, async ({ app, page }) => {
    // One language in each theme: the failed-import dialog is looked at light and dark.
    const theme = lang === 'ja' ? 'dark' : 'light';
    await patchSettings(app, { language: lang, theme });
    await app.open(page);

    // An assistant name past the 100-character limit: refused by the contract's schema.
    await page.getByTestId(TID.navAssistants).click();
    await page.getByTestId(TID.assistantNew).click();
    await page.getByTestId(TID.assistantCreateName).fill('长'.repeat(101));
    await page.getByTestId(TID.assistantCreateOk).click();
    const alert = page.getByTestId(TID.assistantCreateError);
    await expect(alert).toContainText(REFUSED[lang].tooLong);
    await expect(alert).not.toContainText('Too big');
    await expectNoEnglish(page, 'assistant name too long');
    await shot(page, `engine-language-input-too-long-${theme}-${lang}`);
    await page.keyboard.press('Escape');
    expect(await app.call<unknown[]>('listAssistants')).not.toContainEqual(expect.objectContaining({ name: '长'.repeat(101) }));

    // A dropped folder holding SKILL.md and skill.md: one file on a case-insensitive disk, refused.
    const twins = path.join(app.scratch, 'twins');
    fs.mkdirSync(twins);
    fs.writeFileSync(path.join(twins, 'SKILL.md'), '---\nname: twins\ndescription: One of two. Use when asked.\n---\n');
    fs.writeFileSync(path.join(twins, 'skill.md'), 'the other one\n');
    await page.getByTestId(TID.navSkills).click();
    await dragPathsOnto(page, [twins]);
    const summary = page.getByTestId(TID.importSummary);
    await expect(summary.locator('.arco-alert-error')).toContainText(REFUSED[lang].twins);
    await expect(summary).toContainText('twins/SKILL.md');
    // Titled as failed, not as a finished import.
    await expect(page.locator('.arco-modal-title')).toHaveText(REFUSED[lang].failed);
    await expectNoEnglish(page, 'upload refused');
    await shot(page, `engine-language-upload-refused-${theme}-${lang}`);
    expect(fs.existsSync(path.join(app.home, 'library', 'twins'))).toBe(false);
  });
}
