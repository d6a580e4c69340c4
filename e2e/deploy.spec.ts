import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { patchSettings, setLanguage } from './helpers';
import { shot } from './shots';
import { TID, pageId, rowId } from '../renderer/src/testids';

// The Deployments page in Chromium, in English and Japanese: a skill switched on for every agent
// (links on disk), off for one, drift made on disk seen within a second (the engine watches the
// agents' folders), repaired; a deployed skill deleted from the library takes its links with it,
// and undo brings them back. Screenshots of the matrix in light and dark.

const cell = (skill: string, agent: string) => rowId(TID.deployCell, `${skill}--${agent}`);
const linkAt = (p: string) => (fs.lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ? fs.readlinkSync(p) : null);

for (const lang of ['en', 'ja'] as const) {
  test(`deployments: all agents, off for one, drift seen live, repair, delete and undo (${lang})`, async ({ app, page }) => {
    await app.call('createSkill', { name: 'helper', description: 'Helps with the task at hand.' });
    await app.call('createSkill', { name: 'notes', description: 'Keeps notes.' });
    const lib = (n: string) => path.join(app.home, 'library', n);
    const claude = path.join(app.userHome, '.claude', 'skills', 'helper');
    const shared = path.join(app.userHome, '.agents', 'skills', 'helper');

    await app.open(page);
    await setLanguage(app, page, lang);
    await page.getByTestId(TID.navDeploy).click();
    await expect(page.getByTestId(pageId('deploy'))).toBeVisible();
    await expect(page.getByTestId(cell('helper', 'claude'))).toHaveAttribute('data-wanted', '');

    // on for every agent: Claude Code's folder and the shared one (every other agent reads it)
    await page.getByTestId(rowId(TID.deployRowAll, 'helper')).click();
    await expect(page.getByTestId(cell('helper', 'codex'))).toHaveAttribute('data-wanted', 'link');
    await expect.poll(() => linkAt(claude)).toBe(lib('helper'));
    expect(linkAt(shared)).toBe(lib('helper'));
    for (const agent of ['claude', 'gemini', 'codex', 'opencode', 'qwen', 'copilot', 'generic']) {
      await expect(page.getByTestId(cell('helper', agent))).toHaveAttribute('data-on', 'true');
    }
    await page.getByTestId(rowId(TID.deployColumnAll, 'qwen')).click(); // every skill for Qwen Code
    await expect(page.getByTestId(cell('notes', 'qwen'))).toHaveAttribute('data-wanted', 'link');
    // a copy for Claude Code reaches OpenCode too (it reads ~/.claude/skills): said in words, shown in the cell
    await page
      .getByTestId(TID.deployMode)
      .getByText(lang === 'en' ? 'Copy' : 'コピー')
      .click();
    await page.getByTestId(cell('notes', 'claude')).getByTestId(TID.deployCellSwitch).click();
    await expect(page.getByTestId(TID.deployAlsoOn)).toContainText('OpenCode');
    await expect(page.getByTestId(cell('notes', 'opencode')).getByTestId(TID.deployVia)).toContainText('Claude Code');
    expect(fs.lstatSync(path.join(app.userHome, '.claude', 'skills', 'notes')).isDirectory()).toBe(true);
    await page
      .getByTestId(TID.deployMode)
      .getByText(lang === 'en' ? 'Link' : 'リンク')
      .click();
    await page.mouse.move(0, 0); // no tooltip over the column names
    await shot(page, `deploy-matrix-light-${lang}`);
    await patchSettings(app, { theme: 'dark' });
    await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
    await shot(page, `deploy-matrix-dark-${lang}`);
    await patchSettings(app, { theme: 'light' });

    // off for one agent: only its link goes
    await page.getByTestId(cell('helper', 'claude')).getByTestId(TID.deployCellSwitch).click();
    await expect(page.getByTestId(cell('helper', 'claude'))).toHaveAttribute('data-wanted', '');
    await expect.poll(() => fs.existsSync(claude) || linkAt(claude) !== null).toBe(false);
    expect(linkAt(shared)).toBe(lib('helper'));

    // drift made on disk is seen without a reload (about a second idle; loose for a loaded machine), and repaired
    fs.unlinkSync(shared);
    const codex = page.getByTestId(cell('helper', 'codex'));
    await expect(codex).toHaveAttribute('data-state', 'missing', { timeout: 5_000 });
    await expect(page.getByTestId(TID.deploySummary)).toHaveAttribute('data-drift', '1');
    await shot(page, `deploy-drift-${lang}`);
    await page.getByTestId(TID.deployRepair).click();
    await expect(codex).toHaveAttribute('data-state', 'in-sync');
    expect(linkAt(shared)).toBe(lib('helper'));

    // a deployed skill deleted from the library: the dialog names the agents, its links go, undo brings them back
    await page.getByTestId(TID.navLibrary).click();
    await page.getByTestId(rowId(TID.libraryDelete, 'helper')).click();
    await expect(page.getByTestId(TID.deleteAgents)).toContainText(lang === 'en' ? 'Codex' : 'Codex');
    await shot(page, `deploy-delete-${lang}`);
    await page.getByTestId(TID.deleteConfirmOk).click();
    await expect(page.getByTestId(rowId(TID.libraryRow, 'helper'))).toHaveCount(0);
    expect(linkAt(shared)).toBeNull();
    expect(fs.readdirSync(path.join(app.userHome, '.agents', 'skills'))).toEqual([]);
    await page.getByTestId(TID.toastUndo).last().click();
    await expect(page.getByTestId(rowId(TID.libraryRow, 'helper'))).toBeVisible();
    await expect.poll(() => linkAt(shared)).toBe(lib('helper'));
    await page.getByTestId(TID.navDeploy).click();
    await expect(page.getByTestId(cell('helper', 'codex'))).toHaveAttribute('data-state', 'in-sync');
    await expect(page.getByText('{{')).toHaveCount(0);
  });
}
