import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { TID, pageId, rowId } from '../renderer/src/testids';
import { patchSettings } from './helpers';
import { shot } from './shots';

test('switching language and theme in Settings applies at once, persists in the engine and survives a reload', async ({ app, page }) => {
  await app.open(page);
  await page.getByTestId(TID.navSettings).click();
  await expect(page.getByTestId(pageId('settings'))).toBeVisible();

  await page.getByTestId(TID.settingsLanguage).click();
  await page.getByRole('option', { name: '简体中文' }).click();
  await expect(page.getByTestId(TID.navSkills)).toHaveText('技能');
  await expect(page.getByTestId(TID.navSettings)).toHaveText('设置');

  await page.getByTestId(TID.settingsThemeDark).click();
  await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');

  const saved = JSON.parse(fs.readFileSync(path.join(app.home, 'settings.json'), 'utf8'));
  expect(saved.data ?? saved).toMatchObject({ language: 'zh-CN', theme: 'dark' });

  // A reload keeps the session (token in sessionStorage) and the settings (in the engine).
  await page.reload();
  await expect(page.getByTestId(TID.appShell)).toBeVisible();
  await expect(page.getByTestId(TID.navSkills)).toHaveText('技能');
  await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');

  await page.getByTestId(TID.navSettings).click();
  await page.getByTestId(TID.settingsThemeLight).click();
  await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
  await page.getByTestId(TID.settingsLanguage).click();
  await page.getByRole('option', { name: 'English' }).click();
  await expect(page.getByTestId(TID.navSkills)).toHaveText('Skills');
  expect(await app.call('getSettings')).toMatchObject({ language: 'en', theme: 'light' });
});

test('a page opened without the token cannot read anything and says how to get in', async ({ app, page }) => {
  await page.goto(app.origin + '/');
  await expect(page.getByTestId(TID.appShell)).toBeVisible();
  // The client's ApiError('unauthorized') message reaches the user.
  await expect(page.getByText(/No access token: open the URL that `skilldock serve` printed/).first()).toBeVisible();
  await expect(page.getByTestId(TID.skillsList).locator(`[data-testid^="${TID.skillRow}-"]`)).toHaveCount(0);
});

test('a custom agent added in Settings is checked as typed, saved by the engine, offered to assistants, and removed after confirmation', async ({
  app,
  page,
}) => {
  await app.open(page);
  await page.getByTestId(TID.navSettings).click();
  const section = page.getByTestId(TID.settingsCustomAgents);
  await expect(section.getByTestId(TID.settingsCustomAgentsEmpty)).toBeVisible();
  await section.getByTestId(TID.settingsCustomAgentAdd).click();
  const form = section.getByTestId(TID.settingsCustomAgentForm);

  // Inline rules: a shipped id and a path leaving the workspace are refused before anything is sent.
  await form.getByTestId(TID.settingsCustomAgentId).fill('claude');
  await form.getByTestId(TID.settingsCustomAgentSkillsDir).fill('../elsewhere');
  await form.getByTestId(TID.settingsCustomAgentName).focus();
  await expect(form.getByText('“claude” is a built-in agent; choose another ID')).toBeVisible();
  await expect(form.getByText('“..” would lead out of the workspace')).toBeVisible();

  await form.getByTestId(TID.settingsCustomAgentId).fill('myagent');
  await form.getByTestId(TID.settingsCustomAgentName).fill('My Agent');
  await form.getByTestId(TID.settingsCustomAgentCommand).fill('myagent --chat');
  await form.getByTestId(TID.settingsCustomAgentSkillsDir).fill('.myagent/skills');
  await form.getByTestId(TID.settingsCustomAgentContextFile).fill('MYAGENT.md');
  await form.getByTestId(TID.settingsCustomAgentSubmit).click();

  const row = section.getByTestId(rowId(TID.settingsCustomAgentRow, 'myagent'));
  await expect(row).toContainText('My Agent');
  await expect(row).toContainText('.myagent/skills');
  await expect(form).toBeHidden();
  const saved = JSON.parse(fs.readFileSync(path.join(app.home, 'settings.json'), 'utf8'));
  expect((saved.data ?? saved).customAgents).toEqual([
    { id: 'myagent', name: 'My Agent', command: 'myagent --chat', skillsDir: '.myagent/skills', contextFile: 'MYAGENT.md' },
  ]);

  // Assistants can pick it at once (the registry cache was refreshed).
  await page.getByTestId(TID.navAssistants).click();
  await page.getByTestId(TID.assistantNew).click();
  await page.getByTestId(TID.assistantCreateAgent).click();
  await expect(page.getByTestId(rowId(TID.assistantCreateAgent, 'myagent'))).toBeVisible();
  await page.keyboard.press('Escape'); // closes the select
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toBeHidden();

  await page.getByTestId(TID.navSettings).click();
  await row.getByTestId(rowId(TID.settingsCustomAgentRemove, 'myagent')).click();
  await expect(page.getByText('Remove the custom agent “My Agent”?', { exact: false })).toBeVisible();
  await page.getByTestId(TID.settingsCustomAgentRemoveOk).click();
  await expect(row).toBeHidden();
  expect(await app.call<{ customAgents: unknown[] }>('getSettings')).toMatchObject({ customAgents: [] });
});

// Issue 23 item 16: in Japanese the label "ワークスペースを片付けるまで" wrapped and left "で" alone on a
// line (two with this machine's font). Every Settings label fits on one line in every language, or
// wraps into lines of even length.
for (const lang of ['ja', 'zh-CN', 'zh-TW', 'en'] as const) {
  test(`in ${lang}: no Settings label leaves a character alone on a line`, async ({ app, page }) => {
    await patchSettings(app, { language: lang });
    await app.open(page);
    await page.getByTestId(TID.navSettings).click();
    await expect(page.getByTestId(pageId('settings'))).toBeVisible();
    const labels = page.locator('.form-grid > label');
    expect(await labels.count()).toBeGreaterThan(3);
    // Each line's box from the label's text: a last line narrower than two characters, or than a
    // quarter of the line above it ("まで" under twelve characters), is left alone.
    const orphans = await labels.evaluateAll((els) =>
      els.flatMap((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const size = parseFloat(getComputedStyle(el).fontSize);
        const lines = new Map<number, number>();
        for (const r of range.getClientRects()) {
          if (r.width === 0) continue;
          const line = Math.round(r.top / (size / 2));
          lines.set(line, (lines.get(line) ?? 0) + r.width);
        }
        const widths = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, w]) => Math.round(w));
        const last = widths[widths.length - 1];
        return widths.length > 1 && (last < 1.8 * size || last < widths[widths.length - 2] / 4)
          ? [`${el.textContent}: ${widths.join('/')}`]
          : [];
      }),
    );
    expect(orphans).toEqual([]);
    if (lang === 'ja') await shot(page, 'settings-labels-ja');
  });
}
