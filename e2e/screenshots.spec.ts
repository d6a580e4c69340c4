import { test, expect } from './app-fixture';
import { importFixtureSkills, patchSettings, setLanguage } from './helpers';
import { shot } from './shots';
import { PAGES, TID, pageId, rowId } from '../renderer/src/testids';

const NAV = {
  skills: TID.navSkills,
  library: TID.navLibrary,
  updates: TID.navUpdates,
  assistants: TID.navAssistants,
  launch: TID.navLaunch,
  agents: TID.navAgents,
  settings: TID.navSettings,
} as const;

test('screenshots of every page, light and dark, English and Chinese', async ({ app, page }) => {
  test.setTimeout(180_000);
  await importFixtureSkills(app, ['alpha-notes', 'beta-review', 'gamma-docs']);
  const a = await app.call<{ id: string }>('createAssistant', {
    name: 'Docs Writer',
    agent: 'claude',
    skills: ['alpha-notes', 'gamma-docs'],
    rules: '# Persona\n\nWrite **clear** docs.',
  });
  await app.call('launchAssistant', { assistant: a.id });
  await app.open(page);

  for (const lang of ['en', 'zh-CN'] as const) {
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
        await expect(page.getByText('{{')).toHaveCount(0);
        await expect(page.getByTestId(TID.navSkills)).toHaveText(lang === 'en' ? 'Skills' : '技能');
        await shot(page, `${p}-${theme}-${lang}`);
      }
    }
  }
});
