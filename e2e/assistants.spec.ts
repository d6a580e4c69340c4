import { test, expect } from './app-fixture';
import { attachSkills, createAssistant, importFixtureSkills, setLanguage } from './helpers';
import { shot } from './shots';
import { TID, rowId } from '../renderer/src/testids';

const SKILLS = ['alpha-notes', 'beta-review', 'gamma-docs'];

test('an assistant with three skills: the remove dialog names the skill in every language, and the list updates at once', async ({
  app,
  page,
}) => {
  await importFixtureSkills(app, SKILLS);
  await app.open(page);
  await createAssistant(page, 'Code Helper');
  await attachSkills(page, SKILLS);

  const list = page.getByTestId(TID.assistantSkills);
  const rows = list.locator(`[data-testid^="${TID.assistantSkillRow}-"]`);
  await expect(rows).toHaveCount(3);
  for (const s of SKILLS) await expect(list.getByTestId(rowId(TID.assistantSkillRow, s))).toBeVisible();
  await shot(page, 'assistant-editor-three-skills-light-en');

  const dialogText = page.getByTestId(TID.removeConfirm);
  const expectations: Array<['en' | 'zh-CN' | 'ja', RegExp]> = [
    ['en', /^Remove the skill “gamma-docs” from “Code Helper”\?/],
    ['zh-CN', /^要从“Code Helper”中移除技能“gamma-docs”吗？/],
    ['ja', /^「Code Helper」からスキル「gamma-docs」を削除しますか？/],
  ];
  for (const [lang, text] of expectations) {
    await setLanguage(app, page, lang);
    await list.getByTestId(rowId(TID.assistantSkillRemove, 'gamma-docs')).click();
    await expect(dialogText).toBeVisible();
    await expect(dialogText).toHaveText(text);
    await expect(dialogText).not.toContainText('{{');
    await shot(page, `assistant-remove-dialog-light-${lang}`);
    if (lang !== 'ja') {
      await page.getByTestId(TID.removeConfirmCancel).click();
      await expect(dialogText).toBeHidden();
      await expect(rows).toHaveCount(3);
    }
  }

  // Confirm (in Japanese): the row goes away without a reload, the other two stay.
  await page.getByTestId(TID.removeConfirmOk).click();
  await expect(rows).toHaveCount(2, { timeout: 5_000 });
  await expect(list.getByTestId(rowId(TID.assistantSkillRow, 'gamma-docs'))).toHaveCount(0);
  await expect(list.getByTestId(rowId(TID.assistantSkillRow, 'alpha-notes'))).toBeVisible();
  await expect(list.getByTestId(rowId(TID.assistantSkillRow, 'beta-review'))).toBeVisible();

  // And the engine agrees.
  const view = await app.call<{ skills: Array<{ name: string }> }>('getAssistant', { assistant: 'Code Helper' });
  expect(view.skills.map((s) => s.name).sort()).toEqual(['alpha-notes', 'beta-review']);
});
