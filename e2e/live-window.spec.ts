import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, root, type SkillDockApp } from './app-fixture';
import { importFixtureSkills, setLanguage } from './helpers';
import { TID, rowId } from '../renderer/src/testids';

// Issue 23 item 5: what happens outside the window (the `skilldock` CLI in a terminal, a folder
// moved on disk) reaches the open window within about a second, with no reload. The page stays
// open while the real CLI runs against the same SKILLDOCK_HOME.

/**
 * Soon after the change, with no reload. Idle, it takes the engine's debounce plus one refetch
 * (about half a second); the bound is loose because a fixed 1.5 s could fail a correct build on a
 * loaded CI machine, and the point here is that the window follows at all, without a reload.
 */
const SOON = { timeout: 5_000 };

function cli(app: SkillDockApp, ...args: string[]): string {
  const env = { ...process.env, HOME: app.userHome, SKILLDOCK_HOME: app.home, SKILLDOCK_USER_HOME: app.userHome, NO_COLOR: '1' };
  return execFileSync(process.execPath, [path.join(root, 'bin', 'skilldock.js'), ...args], { env, encoding: 'utf8' });
}

/** A skill folder outside both homes, that a link in Claude Code's user folder points at. */
function outsideSkill(app: SkillDockApp, name: string, script?: string): string {
  const dir = path.join(app.scratch, 'elsewhere', name);
  fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: Notes kept elsewhere. Use when asked.\n---\n\nBody.\n`);
  if (script) fs.writeFileSync(path.join(dir, 'scripts', 'run.sh'), script, { mode: 0o755 });
  return dir;
}

test('a CLI delete and its undo show in the open Library and Skills pages', async ({ app, page }) => {
  await importFixtureSkills(app, ['alpha-notes', 'beta-review']);
  await app.open(page);
  await page.getByTestId(TID.navLibrary).click();
  const row = page.getByTestId(rowId(TID.libraryRow, 'alpha-notes'));
  await expect(row).toBeVisible();

  cli(app, 'delete', 'alpha-notes');
  await expect(row).toHaveCount(0, SOON);
  await expect(page.getByTestId(rowId(TID.libraryRow, 'beta-review'))).toBeVisible();

  cli(app, 'undo');
  await expect(row).toBeVisible(SOON);

  // The Skills page follows too (the catalog), and the open History tab marks what the CLI undid.
  await page.getByTestId(TID.navSkills).click();
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/alpha-notes'))).toBeVisible();
  cli(app, 'delete', 'alpha-notes');
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/alpha-notes'))).toHaveCount(0, SOON);
  await page.getByTestId(TID.navLibrary).click();
  await page.getByTestId(`${TID.libraryTab}-history`).click();
  const history = page.getByTestId(TID.historyList);
  // The first delete was undone; the second is not yet: the CLI's undo of it shows in the open tab.
  const undone = history.locator('[data-op="delete"][data-state="undone"]');
  await expect(history.locator('[data-op="delete"]')).toHaveCount(2);
  await expect(undone).toHaveCount(1);
  cli(app, 'undo');
  await expect(undone).toHaveCount(2, SOON);
});

test('a link whose target goes away shows as dangling, and healthy again when it comes back', async ({ app, page }) => {
  const target = outsideSkill(app, 'far-notes');
  const claudeSkills = path.join(app.userHome, '.claude', 'skills');
  fs.mkdirSync(claudeSkills, { recursive: true });
  fs.symlinkSync(target, path.join(claudeSkills, 'far-notes'));
  await app.open(page);
  const skillRow = page.getByTestId(rowId(TID.skillRow, 'user:.claude/skills/far-notes'));
  await expect(skillRow).toBeVisible();
  const problems = page.getByTestId(TID.rootProblems);
  await expect(problems).toHaveCount(0);

  fs.renameSync(target, `${target}.away`);
  await expect(problems).toContainText('far-notes', SOON);
  await expect(skillRow).toHaveCount(0);

  fs.renameSync(`${target}.away`, target);
  await expect(problems).toHaveCount(0, SOON);
  await expect(skillRow).toBeVisible();
});

test('a CLI delete and undo of a library skill that a link points at: dangling, then healthy', async ({ app, page }) => {
  await importFixtureSkills(app, ['alpha-notes']);
  const claudeSkills = path.join(app.userHome, '.claude', 'skills');
  fs.mkdirSync(claudeSkills, { recursive: true });
  // A link the user made by hand (not an export SkillDock keeps), so deleting the skill leaves it behind.
  fs.symlinkSync(path.join(app.home, 'library', 'alpha-notes'), path.join(claudeSkills, 'alpha-link'));
  await app.open(page);
  const problems = page.getByTestId(TID.rootProblems);
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/alpha-notes'))).toBeVisible();
  await expect(problems).toHaveCount(0);

  cli(app, 'delete', 'alpha-notes');
  await expect(problems).toContainText('alpha-link', SOON);
  cli(app, 'undo');
  await expect(problems).toHaveCount(0, SOON);
  await expect(page.getByTestId(rowId(TID.skillRow, 'library/alpha-notes'))).toBeVisible();
});

test('an approval, its revocation, an attach and a rename made by the CLI reach the open window', async ({ app, page }) => {
  await importFixtureSkills(app, ['alpha-notes']);
  await app.call('importPaths', { paths: [outsideSkill(app, 'script-tool', '#!/bin/sh\necho "hello"\n')] });
  const assistant = await app.call<{ id: string }>('createAssistant', { name: 'Helper', agent: 'claude' });
  await app.open(page);

  // The skill's security panel, open while the terminal approves its scripts.
  await page.getByTestId(rowId(TID.skillRow, 'library/script-tool')).click();
  const drawer = page.getByTestId(TID.skillDrawer);
  await drawer.getByRole('tab', { name: 'Security' }).click();
  const status = drawer.getByTestId(TID.skillApprovalStatus);
  await expect(status).toHaveAttribute('data-status', 'unapproved');
  cli(app, 'approve', 'script-tool');
  await expect(status).toHaveAttribute('data-status', 'approved', SOON);
  cli(app, 'approve', '--revoke', 'script-tool');
  await expect(status).toHaveAttribute('data-status', 'unapproved', SOON);
  await page.getByTestId(TID.skillDrawerClose).click();

  // The assistant's editor, open while the terminal attaches a skill.
  await page.getByTestId(TID.navAssistants).click();
  await page.getByTestId(rowId(TID.assistantRow, assistant.id)).click();
  cli(app, 'assistant', 'attach', 'Helper', 'alpha-notes');
  await expect(page.getByTestId(TID.assistantSkills).getByTestId(rowId(TID.assistantSkillRow, 'alpha-notes'))).toBeVisible(SOON);
  cli(app, 'assistant', 'edit', 'Helper', '--name', 'Renamed Helper');
  await expect(page.getByTestId(TID.assistantName)).toHaveValue('Renamed Helper', SOON);
});

test('the starter assistants follow the language, in the open window (issue 23 item 14)', async ({ app, page }) => {
  await app.open(page);
  await page.getByTestId(TID.navAssistants).click();
  const starter = page.getByTestId(rowId(TID.starterRow, 'starter-code-reviewer'));
  await expect(starter).toContainText('Code Reviewer');
  await setLanguage(app, page, 'ja');
  await expect(starter).toContainText('コードレビュアー');
  await starter.click();
  await expect(page.getByTestId(TID.assistantName)).toHaveValue('コードレビュアー');
  await expect(page.getByTestId(TID.assistantPersona)).toContainText('あなたはマージ前の変更をレビューします');
  // Switched while the starter is open: its editor follows.
  await setLanguage(app, page, 'zh-TW');
  await expect(starter).toContainText('程式碼審查員');
  await expect(page.getByTestId(TID.assistantName)).toHaveValue('程式碼審查員');
  await expect(page.getByTestId(TID.assistantPersona)).toContainText('你在變更合併前審查它們');
});

test('a custom agent added by the CLI appears on the open Agents page, and goes when removed', async ({ app, page }) => {
  await app.open(page);
  await page.getByTestId(TID.navAgents).click();
  await expect(page.getByTestId(rowId(TID.agentCard, 'claude'))).toBeVisible();
  const card = page.getByTestId(rowId(TID.agentCard, 'my-agent'));
  await expect(card).toHaveCount(0);
  cli(
    app,
    'agents',
    'add',
    'my-agent',
    '--name',
    'My Agent',
    '--command',
    'my-agent',
    '--skills-dir',
    '.my-agent/skills',
    '--context-file',
    'MY-AGENT.md',
  );
  await expect(card).toBeVisible(SOON);
  cli(app, 'agents', 'remove', 'my-agent');
  await expect(card).toHaveCount(0, SOON);
});
