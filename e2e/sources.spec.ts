import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, type SkillDockApp } from './app-fixture';
import { patchSettings } from './helpers';
import { expectNoEnglish } from './english';
import { shot } from './shots';
import { makeRepo, skillMd, startGitDaemon, type Served, type TestRepo } from '../test/support/git-servers';
import { TID, pageId, rowId } from '../renderer/src/testids';

// Skills from a source in the browser UI (issue 15): a real git repository in the test's scratch
// folder, two skills in it, served by `git daemon` on 127.0.0.1 (add, check, update) or read
// through a file:// URL (the conflict cases).

const servers: Served[] = [];
test.afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

/** `git daemon` on loopback serving the test's repositories; stopped after the test. */
async function served(app: SkillDockApp, repo: TestRepo): Promise<string> {
  const daemon = await startGitDaemon(path.join(app.scratch, 'git', 'served'));
  servers.push(daemon);
  return `${daemon.base}/${path.basename(repo.bare)}`;
}

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

async function openUpdates(app: SkillDockApp, page: Page): Promise<void> {
  await app.open(page);
  await page.getByTestId(TID.navUpdates).click();
  await expect(page.getByTestId(pageId('updates'))).toBeVisible();
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
    const source = await served(app, repo);
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
    // A plain folder is said to be one (not git's "check your access rights"), with the import offered.
    await expect(error).toContainText(lang === 'en' ? 'is a folder, not a git repository' : '是一个普通文件夹，不是 git 仓库');
    await expect(error).not.toContainText('access rights');
    await expect(page.getByTestId(TID.addSourceImportFolder)).toBeVisible();
    if (lang !== 'en') await expectNoEnglish(page, 'add-source refusal');
    await shot(page, `sources-add-refused-light-${lang}`);
    await expect(add).toBeDisabled();

    // Step 1: what the source holds, every skill checked, nothing installed yet.
    await page.getByTestId(TID.addSourceInput).fill(source);
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
    expect(prov.skills.alpha?.source.given).toBe(source);
    expect(prov.skills.alpha?.commit).toMatch(/^[0-9a-f]{40}$/);
  });
}

test('a plain folder given as a source is imported instead, from the refusal (issue 23 item 11)', async ({ app, page }) => {
  const plain = path.join(app.scratch, 'my-skills');
  fs.mkdirSync(path.join(plain, 'tidy-notes'), { recursive: true });
  fs.writeFileSync(
    path.join(plain, 'tidy-notes', 'SKILL.md'),
    '---\nname: tidy-notes\ndescription: Tidies notes. Use when asked.\n---\n\nTidy.\n',
  );
  await app.open(page);
  await openAddDialog(page);
  await page.getByTestId(TID.addSourceInput).fill(plain);
  await page.getByTestId(TID.addSourceFind).click();
  await page.getByTestId(TID.addSourceImportFolder).click();
  await expect(page.getByTestId(TID.addSourceDialog)).toBeHidden();
  await expect.poll(() => fs.existsSync(path.join(app.home, 'library', 'tidy-notes', 'SKILL.md'))).toBe(true);
});

test('in zh-CN: a skill folder that links out of the source is not offered, and the dialog says why', async ({ app, page }) => {
  const repo = twoSkillRepo(app);
  const outside = path.join(app.scratch, 'outside');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'SKILL.md'), skillMd('evil'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  fs.symlinkSync(outside, path.join(repo.work, 'skills', 'evil'));
  repo.commit({}, 'link out');
  await patchSettings(app, { language: 'zh-CN' });
  await app.open(page);
  await openAddDialog(page);
  await page.getByTestId(TID.addSourceInput).fill(`file://${repo.bare}`);
  await page.getByTestId(TID.addSourceFind).click();
  await expect(page.getByTestId(rowId(TID.addSourceRow, 'alpha'))).toBeVisible();
  await expect(page.getByTestId(rowId(TID.addSourceRow, 'evil'))).toHaveCount(0);
  await expect(page.getByTestId(TID.addSourceSkipped)).toHaveText(`已跳过 file://${repo.bare} 中的 skills/evil：它通过链接指向仓库之外。`);
  await expectNoEnglish(page, 'add-source skipped');
});

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

for (const lang of ['en', 'zh-CN'] as const) {
  test(`in ${lang}: after an upstream commit the Updates view shows the update, updates the skill and undo is offered`, async ({
    app,
    page,
  }) => {
    const repo = twoSkillRepo(app);
    const source = await served(app, repo);
    await app.call('addFromSource', { source, skills: ['alpha', 'beta'] });
    const before = await app.call<{ skills: Record<string, { commit: string }> }>('listProvenance');
    const upstream = repo.commit({
      'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha says version two.'),
      'skills/alpha/extra.md': 'new file\n',
    });
    await patchSettings(app, { language: lang });
    await openUpdates(app, page);

    // Provenance before any check: source, ref, commit, installed.
    const alpha = page.getByTestId(rowId(TID.updatesRow, 'alpha'));
    await expect(alpha).toHaveAttribute('data-status', 'unchecked');
    await expect(alpha).toContainText(source);
    await expect(alpha.getByTestId(TID.updatesCommit)).toHaveText(before.skills.alpha!.commit.slice(0, 7));

    await page.getByTestId(TID.updatesCheck).click();
    await expect(alpha).toHaveAttribute('data-status', 'update-available');
    await expect(page.getByTestId(rowId(TID.updatesRow, 'beta'))).toHaveAttribute('data-status', 'up-to-date');
    await expect(page.getByTestId(TID.updatesBadge)).toHaveText('1');
    await expect(alpha).toContainText(upstream.slice(0, 7));
    if (lang !== 'en') await expectNoEnglish(page, 'updates after check');
    for (const theme of ['light', 'dark'] as const) {
      await themed(app, page, theme);
      await shot(page, `sources-updates-${theme}-${lang}`);
    }
    await themed(app, page, 'light');

    await page.getByTestId(rowId(TID.updatesUpdate, 'alpha')).click();
    await expect(alpha.getByTestId(TID.updatesOutcome)).toHaveAttribute('data-status', 'updated');
    await expect(alpha).toHaveAttribute('data-status', 'up-to-date');
    await expect(alpha.getByTestId(TID.updatesCommit)).toHaveText(upstream.slice(0, 7));
    await expect(page.getByTestId(TID.updatesBadge)).toHaveCount(0);
    const lib = path.join(app.home, 'library', 'alpha');
    expect(fs.readFileSync(path.join(lib, 'SKILL.md'), 'utf8')).toContain('version two');
    expect(fs.readFileSync(path.join(lib, 'extra.md'), 'utf8')).toBe('new file\n');
    if (lang !== 'en') await expectNoEnglish(page, 'updates after update');

    // The new content is what the Skills page shows.
    await page.getByTestId(TID.navSkills).click();
    await page.getByTestId(rowId(TID.skillRow, 'library/alpha')).click();
    await expect(page.getByTestId(TID.skillBody)).toContainText('version two');
    await page.keyboard.press('Escape');

    // The undo toast reverts the update run.
    await page.getByTestId(TID.undoButton).click();
    // The swap back is a rename: between the two steps the folder may briefly be absent.
    const text = () => (fs.existsSync(path.join(lib, 'SKILL.md')) ? fs.readFileSync(path.join(lib, 'SKILL.md'), 'utf8') : '');
    await expect.poll(text).toContain('version one');
    expect(fs.existsSync(path.join(lib, 'extra.md'))).toBe(false);
  });
}

for (const lang of ['en', 'zh-CN'] as const) {
  // en keeps the local version; zh-CN takes upstream's (editing the merged text has its own test below).
  test(`in ${lang}: a conflicting local edit is resolved per file in the Updates view; pin and unpin`, async ({ app, page }) => {
    const repo = twoSkillRepo(app);
    await app.call('addFromSource', { source: `file://${repo.bare}`, skills: ['alpha'] });
    const lib = path.join(app.home, 'library', 'alpha');
    fs.writeFileSync(path.join(lib, 'SKILL.md'), skillMd('alpha', 'Alpha says MY version.'));
    fs.writeFileSync(path.join(lib, 'mine.md'), 'made here\n');
    repo.commit({ 'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha says version two.') });
    await patchSettings(app, { language: lang });
    await openUpdates(app, page);
    const alpha = page.getByTestId(rowId(TID.updatesRow, 'alpha'));

    // Pinned: the check leaves it alone; unpinned again, the update shows.
    await page.getByTestId(rowId(TID.updatesPin, 'alpha')).click();
    await expect(alpha.getByTestId(TID.updatesPinned)).toBeVisible();
    await page.getByTestId(TID.updatesCheck).click();
    await expect(alpha).toHaveAttribute('data-status', 'pinned');
    await expect(page.getByTestId(rowId(TID.updatesUpdate, 'alpha'))).toHaveCount(0);
    await page.getByTestId(rowId(TID.updatesPin, 'alpha')).click();
    await expect(alpha.getByTestId(TID.updatesPinned)).toHaveCount(0);
    await expect(alpha).toHaveAttribute('data-status', 'update-available');

    await page.getByTestId(rowId(TID.updatesUpdate, 'alpha')).click();
    await expect(alpha.getByTestId(TID.updatesOutcome)).toHaveAttribute('data-status', 'conflict');
    expect(fs.readFileSync(path.join(lib, 'SKILL.md'), 'utf8')).toContain('MY version');
    await page.getByTestId(rowId(TID.updatesResolve, 'alpha')).click();
    const dialog = page.getByTestId(TID.updateConflictDialog);
    const file = dialog.getByTestId(rowId(TID.updateConflictFile, 'SKILL.md'));
    await expect(file).toContainText('MY version');
    await expect(file).toContainText('version two');
    if (lang !== 'en') await expectNoEnglish(page, 'update conflict dialog');
    for (const theme of ['light', 'dark'] as const) {
      await themed(app, page, theme);
      await shot(page, `sources-update-conflict-${theme}-${lang}`);
    }
    await themed(app, page, 'light');
    const apply = page.getByTestId(TID.updateConflictApply);
    await expect(apply).toBeDisabled();
    const want = lang === 'en' ? 'MY version' : 'version two';
    await file.getByTestId(rowId(lang === 'en' ? TID.updateConflictMine : TID.updateConflictUpstream, 'SKILL.md')).click();
    await apply.click();
    await expect(dialog).toBeHidden();
    await expect(alpha.getByTestId(TID.updatesOutcome)).toHaveAttribute('data-status', 'updated');
    // The library copy as updated (with the user's choice) is the new baseline for local changes.
    await expect(alpha).toHaveAttribute('data-status', 'up-to-date');
    expect(fs.readFileSync(path.join(lib, 'SKILL.md'), 'utf8')).toContain(want);
    expect(fs.readFileSync(path.join(lib, 'mine.md'), 'utf8')).toBe('made here\n');
  });
}

/** The labels of the conflict markers in each language (issue 23 item 14): the engine sends codes. */
const MARKER_WORDS = { en: ['yours', 'upstream'], ja: ['自分の版', '上流の版'] } as const;

for (const lang of ['en', 'ja'] as const) {
  test(`in ${lang}: a conflicting file is settled by editing the merged text; markers left (in ${lang}'s words) are refused`, async ({
    app,
    page,
  }) => {
    await patchSettings(app, { language: lang });
    const repo = twoSkillRepo(app);
    await app.call('addFromSource', { source: `file://${repo.bare}`, skills: ['alpha'] });
    const lib = path.join(app.home, 'library', 'alpha');
    fs.writeFileSync(path.join(lib, 'SKILL.md'), skillMd('alpha', 'Alpha says MY version.'));
    repo.commit({ 'skills/alpha/SKILL.md': skillMd('alpha', 'Alpha says version two.') });
    await openUpdates(app, page);
    const alpha = page.getByTestId(rowId(TID.updatesRow, 'alpha'));
    await page.getByTestId(TID.updatesCheck).click();
    await expect(alpha).toHaveAttribute('data-status', 'update-available');
    await page.getByTestId(rowId(TID.updatesUpdate, 'alpha')).click();
    await expect(alpha.getByTestId(TID.updatesOutcome)).toHaveAttribute('data-status', 'conflict');
    await page.getByTestId(rowId(TID.updatesResolve, 'alpha')).click();
    const file = page.getByTestId(TID.updateConflictDialog).getByTestId(rowId(TID.updateConflictFile, 'SKILL.md'));
    // the difference, both sides marked
    await expect(file.getByTestId(TID.updateConflictDiff)).toContainText('MY version');
    await expect(file.getByTestId(TID.updateConflictDiff)).toContainText('version two');
    await file.getByTestId(rowId(TID.updateConflictEdit, 'SKILL.md')).click();
    const editor = file.getByTestId(TID.updateConflictEditor);
    await expect(editor).toContainText(`<<<<<<< ${MARKER_WORDS[lang][0]}`);
    await expect(editor).toContainText(`>>>>>>> ${MARKER_WORDS[lang][1]}`);
    await expect(editor).not.toContainText('<<<<<<< mine');
    await shot(page, `sources-update-conflict-edit-light-${lang}`);
    // Applied with the markers still in: refused in the dialog, nothing written.
    await page.getByTestId(TID.updateConflictApply).click();
    await expect(page.getByTestId(TID.updateConflictUnsettled)).toContainText('SKILL.md');
    expect(fs.readFileSync(path.join(lib, 'SKILL.md'), 'utf8')).toContain('MY version');
    // Edited to what should stay.
    const merged = skillMd('alpha', 'Alpha says version two, with MY line kept.');
    await editor.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(merged);
    await page.getByTestId(TID.updateConflictApply).click();
    await expect(page.getByTestId(TID.updateConflictDialog)).toBeHidden();
    await expect(alpha.getByTestId(TID.updatesOutcome)).toHaveAttribute('data-status', 'updated');
    // What the editor held is written (trailing blank lines aside: typing into the editor may add one).
    const written = fs.readFileSync(path.join(lib, 'SKILL.md'), 'utf8');
    expect(written.trimEnd()).toBe(merged.trimEnd());
    expect(written).not.toMatch(/^(<{7}|={7}|>{7})/m);
  });
}
