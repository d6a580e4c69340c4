import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, type SkillDockApp } from './app-fixture';
import { patchSettings } from './helpers';
import { expectNoEnglish } from './english';
import { shot } from './shots';
import { makeRepo, skillMd, type TestRepo } from '../src/sources/fixtures/git-servers';
import { TID, rowId } from '../renderer/src/testids';

// Skills from a source in the browser UI (issue 15): a real git repository in the test's scratch
// folder, read through a file:// URL (git itself, no server), two skills in it.

function twoSkillRepo(app: SkillDockApp): TestRepo {
  return makeRepo(path.join(app.scratch, 'git'), 'tools', {
    'README.md': 'Two skills.',
    'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha says version one.'),
    'skills/beta/SKILL.md': skillMd('beta', 'Beta stays home.'),
  });
}

async function openAddDialog(page: Page): Promise<void> {
  await page.getByTestId(TID.importButton).click();
  await page.getByTestId(TID.importPickSource).click();
  await expect(page.getByTestId(TID.addSourceDialog)).toBeVisible();
}

async function themed(app: SkillDockApp, page: Page, theme: 'light' | 'dark'): Promise<void> {
  await patchSettings(app, { theme });
  if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
  else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
}

for (const lang of ['en', 'zh-CN'] as const) {
  test(`in ${lang}: add one skill of two from a git source through the dialog; a folder that is no repository is refused in ${lang}`, async ({
    app,
    page,
  }) => {
    const repo = twoSkillRepo(app);
    const notRepo = path.join(app.scratch, 'plain-folder');
    fs.mkdirSync(notRepo);
    await patchSettings(app, { language: lang });
    await app.open(page);
    await openAddDialog(page);
    const dialog = page.getByTestId(TID.addSourceDialog);
    const add = page.getByTestId(TID.addSourceAdd);
    await expect(add).toBeDisabled();

    // A refusal, worded from the engine's message key in the window's language.
    await page.getByTestId(TID.addSourceInput).fill(notRepo);
    await page.getByTestId(TID.addSourceFind).click();
    const error = page.getByTestId(TID.addSourceError);
    await expect(error).toContainText('plain-folder');
    await expect(error).toContainText(lang === 'en' ? 'is not a git repository' : '不是 SkillDock 能读取的 git 仓库');
    if (lang !== 'en') await expectNoEnglish(page, 'add-source refusal');
    await shot(page, `sources-add-refused-light-${lang}`);
    await expect(add).toBeDisabled();

    // Step 1: what the source holds, every skill checked, nothing installed yet.
    await page.getByTestId(TID.addSourceInput).fill(`file://${repo.bare}`);
    await expect(error).toBeHidden();
    await page.getByTestId(TID.addSourceFind).click();
    await expect(page.getByTestId(TID.addSourceFound)).toBeVisible();
    for (const name of ['alpha', 'beta']) {
      await expect(page.getByTestId(rowId(TID.addSourceRow, name))).toContainText(`skills/${name}`);
      await expect(page.getByTestId(rowId(TID.addSourceCheck, name)).locator('input')).toBeChecked();
    }
    await expect(add).toHaveText(lang === 'en' ? 'Add 2 skills' : '添加 2 个技能');
    expect(fs.existsSync(path.join(app.home, 'library', 'alpha'))).toBe(false);
    if (lang !== 'en') await expectNoEnglish(page, 'add-source found');
    for (const theme of ['light', 'dark'] as const) {
      await themed(app, page, theme);
      await shot(page, `sources-add-dialog-${theme}-${lang}`);
    }
    await themed(app, page, 'light');

    // Step 2: only the checked one is installed, through the import flow (summary, undo toast).
    await page.getByTestId(rowId(TID.addSourceCheck, 'beta')).click();
    await expect(add).toHaveText(lang === 'en' ? 'Add 1 skill' : '添加 1 个技能');
    await add.click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId(rowId(TID.importResultRow, 'alpha'))).toHaveAttribute('data-status', 'imported');
    await expect(page.getByTestId(rowId(TID.importResultRow, 'beta'))).toHaveCount(0);
    await page.getByTestId(TID.importSummaryClose).click();
    await expect(page.getByTestId(TID.undoButton)).toBeVisible();
    await expect(page.getByTestId(rowId(TID.skillRow, 'library/alpha'))).toBeVisible();
    await expect(page.getByTestId(rowId(TID.skillRow, 'library/beta'))).toHaveCount(0);
    expect(fs.readFileSync(path.join(app.home, 'library', 'alpha', 'SKILL.md'), 'utf8')).toContain('version one');

    // Its provenance is recorded: the source as given and the commit it came from.
    const prov = await app.call<{ skills: Record<string, { source: { given: string }; commit: string }> }>('listProvenance');
    expect(prov.skills.alpha?.source.given).toBe(`file://${repo.bare}`);
    expect(prov.skills.alpha?.commit).toMatch(/^[0-9a-f]{40}$/);
  });
}

test('adding a skill that is already in the library asks, through the import conflict dialog', async ({ app, page }) => {
  const repo = twoSkillRepo(app);
  await app.call('addFromSource', { source: `file://${repo.bare}`, skills: ['beta'] });
  repo.commit({ 'skills/beta/SKILL.md': skillMd('beta', 'Beta changed upstream.') });
  await app.open(page);
  await openAddDialog(page);
  await page.getByTestId(TID.addSourceInput).fill(`file://${repo.bare}`);
  await page.getByTestId(TID.addSourceFind).click();
  await page.getByTestId(rowId(TID.addSourceCheck, 'alpha')).click();
  await page.getByTestId(TID.addSourceAdd).click();
  await expect(page.getByTestId(TID.conflictDialog)).toContainText('beta');
  await page.getByTestId(TID.conflictKeepBoth).click();
  await expect(page.getByTestId(rowId(TID.importResultRow, 'beta'))).toHaveAttribute('data-status', 'kept-both');
  const names = fs.readdirSync(path.join(app.home, 'library')).filter((n) => !n.startsWith('.'));
  expect(names.sort()).toEqual(['beta', 'beta-2']);
  expect(fs.readFileSync(path.join(app.home, 'library', 'beta-2', 'SKILL.md'), 'utf8')).toContain('changed upstream');
});
