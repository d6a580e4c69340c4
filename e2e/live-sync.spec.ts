import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test, expect, root } from './app-fixture';
import { importFixtureSkills } from './helpers';
import { shot } from './shots';
import { TID, rowId } from '../renderer/src/testids';

// The app open in a browser while the user works in a terminal: what the `skilldock` CLI changes
// shows up in the open window without a reload (the server's engine watches the files in
// SkillDock's home and pushes the usual events).

test('an assistant created and given a skill from the terminal appears in the open app', async ({ app, page }) => {
  await importFixtureSkills(app, ['alpha-notes']);
  await app.open(page);
  await page.getByTestId(TID.navAssistants).click();
  const list = page.getByTestId(TID.assistantsList);
  await expect(list).toBeVisible();

  const env = { ...process.env, HOME: app.userHome, SKILLDOCK_HOME: app.home, SKILLDOCK_USER_HOME: app.userHome, NO_COLOR: '1' };
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(root, 'bin', 'skilldock.js'), ...args], { env, encoding: 'utf8' });
  cli('assistant', 'create', '--name', 'From Terminal', '--agent', 'claude');
  const created = await app.call<Array<{ id: string; name: string }>>('listAssistants');
  const id = created.find((a) => a.name === 'From Terminal')!.id;

  const row = list.getByTestId(rowId(TID.assistantRow, id));
  await expect(row).toBeVisible({ timeout: 5_000 });
  await row.click();
  await expect(page.getByTestId(TID.assistantName)).toHaveValue('From Terminal');

  // Attached in the terminal while its editor is open: the skill row appears there.
  cli('assistant', 'attach', 'From Terminal', 'alpha-notes');
  await expect(page.getByTestId(TID.assistantSkills).getByTestId(rowId(TID.assistantSkillRow, 'alpha-notes'))).toBeVisible({
    timeout: 5_000,
  });
  await shot(page, 'assistant-changed-from-terminal-light-en');
});
