import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './app-fixture';
import { patchSettings } from './helpers';
import { expectNoEnglish } from './english';
import { shot } from './shots';
import { git, makeRepo, startGitDaemon, type Served } from '../test/support/git-servers';
import { ALPHA, BETA, referenceLock } from '../test/support/reference-lock';
import { TID, pageId, rowId } from '../renderer/src/testids';

// Project scope in the browser UI (issue 26 item 5): two skills from a git daemon on 127.0.0.1,
// placed in a project folder for Claude Code and Codex. The plan shows every write and the lock
// file before anything is written; apply writes exactly that. Then a fresh clone of the project,
// served by git daemon too, is installed from its skills-lock.json on the same page.

const servers: Served[] = [];
test.afterEach(async () => {
  for (const s of servers.splice(0)) await s.stop();
});

const WORDS = {
  en: { inside: "is inside SkillDock's home", nothing: 'Nothing to write' },
  ja: { inside: 'SkillDock のホーム', nothing: '書き込むものはありません' },
} as const;

async function tick(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).click();
  await expect(page.getByTestId(testId).locator('input')).toBeChecked();
}

for (const lang of ['en', 'ja'] as const) {
  test(`in ${lang}: place skills in a project with its lock file, seen before written; install a fresh clone from the lock`, async ({
    app,
    page,
  }) => {
    const gitRoot = path.join(app.scratch, 'git');
    makeRepo(gitRoot, 'repo', { 'skills/alpha/SKILL.md': ALPHA, 'skills/alpha/scripts/run.sh': 'echo hi\n', 'skills/beta/SKILL.md': BETA });
    const daemon = await startGitDaemon(path.join(gitRoot, 'served'));
    servers.push(daemon);
    const url = `${daemon.base}/repo.git`;
    await app.call('addFromSource', { source: url });
    await app.call('approveSkill', { name: 'alpha' });
    await patchSettings(app, { language: lang });
    await app.open(page);
    await page.getByTestId(TID.navProject).click();
    await expect(page.getByTestId(pageId('project'))).toBeVisible();

    // A project inside SkillDock's home is refused, in the window's language.
    await page.getByTestId(TID.projectPath).fill(app.home);
    for (const id of [
      rowId(TID.projectSkill, 'alpha'),
      rowId(TID.projectSkill, 'beta'),
      rowId(TID.projectAgent, 'claude'),
      rowId(TID.projectAgent, 'codex'),
    ])
      await tick(page, id);
    await page.getByTestId(TID.projectPreview).click();
    await expect(page.getByTestId(TID.projectError)).toContainText(WORDS[lang].inside);
    if (lang !== 'en') await expectNoEnglish(page, 'project refusal');

    // The plan: every folder, file and link, and the lock's text; nothing written yet.
    const proj = path.join(app.scratch, 'my-project');
    fs.mkdirSync(proj);
    await page.getByTestId(TID.projectPath).fill(proj);
    await page.getByTestId(TID.projectPreview).click();
    await expect(page.getByTestId(TID.projectPlan)).toBeVisible();
    await expect(page.getByTestId(rowId(TID.projectFolder, '.claude/skills'))).toBeVisible();
    await expect(page.getByTestId(rowId(TID.projectWrite, '.claude/skills/alpha/scripts/run.sh'))).toHaveAttribute('data-kind', 'file');
    await expect(page.getByTestId(rowId(TID.projectWrite, '.codex/skills/alpha'))).toContainText('../../.claude/skills/alpha');
    await expect(page.getByTestId(rowId(TID.projectWrite, 'skills-lock.json'))).toHaveAttribute('data-kind', 'lock');
    await expect(page.getByTestId(TID.projectLock)).toHaveText(referenceLock(url).trimEnd());
    await expect(page.getByTestId(TID.projectNote).first()).toContainText('OpenCode');
    expect(fs.readdirSync(proj)).toEqual([]);
    if (lang !== 'en') await expectNoEnglish(page, 'project plan');
    await shot(page, `project-plan-light-${lang}`);

    await page.getByTestId(TID.projectApply).click();
    await expect(page.getByTestId(TID.projectDone)).toBeVisible();
    await expect(page.getByTestId(rowId(TID.projectWrite, 'none'))).toContainText(WORDS[lang].nothing);
    expect(fs.readFileSync(path.join(proj, 'skills-lock.json'), 'utf8')).toBe(referenceLock(url));
    expect(fs.readlinkSync(path.join(proj, '.codex/skills/beta'))).toBe('../../.claude/skills/beta');
    expect(fs.readFileSync(path.join(proj, '.codex/skills/alpha/scripts/run.sh'), 'utf8')).toBe('echo hi\n');

    // The project is committed with its lock only, and a fresh clone is installed from it.
    const work = makeRepo(gitRoot, 'project', { 'skills-lock.json': fs.readFileSync(path.join(proj, 'skills-lock.json'), 'utf8') }).work;
    const clone = path.join(app.scratch, 'clone');
    git(app.scratch, 'clone', '-q', `${daemon.base}/project.git`, clone);
    expect(fs.readdirSync(clone).sort()).toEqual(['.git', 'skills-lock.json']);
    expect(fs.existsSync(work)).toBe(true);
    await page.getByTestId(TID.projectPath).fill(clone);
    await page.getByTestId(TID.projectInstallCheck).click();
    await expect(page.getByTestId(rowId(TID.projectInstallSkill, 'alpha'))).toHaveAttribute('data-status', 'library');
    await expect(page.getByTestId(rowId(TID.projectWrite, '.agents/skills/beta/SKILL.md'))).toBeVisible();
    expect(fs.existsSync(path.join(clone, '.agents'))).toBe(false);
    if (lang !== 'en') await expectNoEnglish(page, 'project install check');
    await shot(page, `project-install-light-${lang}`);
    await page.getByTestId(TID.projectInstallRun).click();
    await expect(page.getByTestId(TID.projectInstallDone)).toBeVisible();
    expect(fs.readFileSync(path.join(clone, '.agents/skills/alpha/SKILL.md'), 'utf8')).toBe(ALPHA);
    expect(git(clone, 'status', '--porcelain')).toBe('?? .agents/');
  });
}
