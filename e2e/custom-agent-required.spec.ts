import { test, expect } from './app-fixture';
import { TID } from '../renderer/src/testids';

test('submitting an empty custom-agent form marks every missing required field, not only the first (bug 6)', async ({ app, page }) => {
  await app.open(page);
  await page.getByTestId(TID.navSettings).click();
  const section = page.getByTestId(TID.settingsCustomAgents);
  await section.getByTestId(TID.settingsCustomAgentAdd).click();
  const form = section.getByTestId(TID.settingsCustomAgentForm);
  await form.getByTestId(TID.settingsCustomAgentSubmit).click();
  const required = [
    TID.settingsCustomAgentId,
    TID.settingsCustomAgentName,
    TID.settingsCustomAgentCommand,
    TID.settingsCustomAgentSkillsDir,
    TID.settingsCustomAgentContextFile,
  ];
  for (const id of required) {
    const item = form.locator('.arco-form-item').filter({ has: page.getByTestId(id) });
    await expect(item.locator('.arco-form-message'), id).not.toBeEmpty();
  }
});
