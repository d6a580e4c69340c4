import { test, expect } from './app-fixture';
import { importFixtureSkills, patchSettings, setLanguage } from './helpers';
import { shot } from './shots';
import { NAV_TID, PAGES, TID, pageId, rowId } from '../renderer/src/testids';

const NAV = NAV_TID;

/** The Skills nav label per language: the page really switched. */
const SKILLS_WORD = { en: 'Skills', 'zh-CN': '技能', ja: 'スキル' } as const;
const GENERIC_AGENT = {
  en: 'Any other agent (.agents/skills)',
  'zh-CN': '其他代理（.agents/skills）',
  ja: 'その他のエージェント（.agents/skills）',
} as const;

test('screenshots of every page, light and dark, in English, Chinese and Japanese', async ({ app, page }) => {
  test.setTimeout(240_000);
  await importFixtureSkills(app, ['alpha-notes', 'beta-review', 'gamma-docs']);
  const a = await app.call<{ id: string }>('createAssistant', {
    name: 'Docs Writer',
    agent: 'claude',
    skills: ['alpha-notes', 'gamma-docs'],
    rules: '# Persona\n\nWrite **clear** docs.',
  });
  await app.call('launchAssistant', { assistant: a.id });
  await app.open(page);

  for (const lang of ['en', 'zh-CN', 'ja'] as const) {
    await setLanguage(app, page, lang);
    for (const theme of ['light', 'dark'] as const) {
      await patchSettings(app, { theme });
      if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
      else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
      for (const p of PAGES) {
        await page.getByTestId(NAV[p]).click();
        await expect(page.getByTestId(pageId(p))).toBeVisible();
        if (p === 'assistants') await page.getByTestId(rowId(TID.assistantRow, a.id)).click();
        if (p === 'skills') await expect(page.getByTestId(rowId(TID.skillRow, 'library/alpha-notes'))).toBeVisible();
        // the registry's descriptive agent name is worded too, not only the product names
        if (p === 'agents') await expect(page.getByTestId(rowId(TID.agentCard, 'generic'))).toHaveText(GENERIC_AGENT[lang]);
        await expect(page.getByText('{{')).toHaveCount(0);
        await expect(page.getByTestId(TID.navSkills)).toHaveText(SKILLS_WORD[lang]);
        await shot(page, `${p}-${theme}-${lang}`);
      }
    }
  }
});
