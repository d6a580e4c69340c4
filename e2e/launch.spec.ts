import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { importFixtureSkills } from './helpers';
import { shot } from './shots';
import { TID, rowId, pageId } from '../renderer/src/testids';

const SKILLS = ['alpha-notes', 'beta-review', 'gamma-docs'];

test('launching an assistant creates a workspace whose skills are links into the library', async ({ app, page }) => {
  await importFixtureSkills(app, SKILLS);
  const assistant = await app.call<{ id: string }>('createAssistant', { name: 'Launcher', agent: 'claude', skills: SKILLS });
  const agents = await app.call<Array<{ id: string; nativeSkillsDir: string }>>('listAgents');
  const native = agents.find((a) => a.id === 'claude')!.nativeSkillsDir;

  await app.open(page);
  await page.getByTestId(TID.navAssistants).click();
  await page.getByTestId(rowId(TID.assistantRow, assistant.id)).click();
  await page.getByTestId(TID.assistantLaunch).click();
  await expect(page.getByTestId(pageId('launch'))).toBeVisible();
  await expect(page.getByTestId(TID.launchAssistant)).toContainText('Launcher');
  await page.getByTestId(TID.launchModeTemp).click();
  await page.getByTestId(TID.launchStart).click();

  const result = page.getByTestId(TID.launchResult);
  await expect(result).toBeVisible();
  await expect(page.getByTestId(TID.launchMode)).toBeVisible();
  const workspace = (await page.getByTestId(TID.launchWorkspace).innerText()).trim();
  expect(path.isAbsolute(workspace)).toBe(true);
  expect(workspace.startsWith(app.home + path.sep)).toBe(true); // a temporary workspace lives in SkillDock's home
  await shot(page, 'launch-result-light-en');

  for (const skill of SKILLS) {
    await expect(page.getByTestId(rowId(TID.launchLink, skill))).toHaveAttribute('data-ok', 'true');
    const link = path.join(workspace, native, skill);
    const st = fs.lstatSync(link);
    expect(st.isSymbolicLink(), `${link} is a link`).toBe(true);
    expect(fs.realpathSync(link)).toBe(fs.realpathSync(path.join(app.home, 'library', skill)));
    expect(fs.readFileSync(path.join(link, 'SKILL.md'), 'utf8')).toContain(`name: ${skill}`);
  }
  expect(fs.readdirSync(path.join(workspace, native)).sort()).toEqual(SKILLS);

  // The conversation is in the history with its workspace.
  const conversation = await result.getAttribute('data-conversation');
  await expect(page.getByTestId(rowId(TID.conversationRow, conversation!))).toBeVisible();
});
