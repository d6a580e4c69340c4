import fs from 'node:fs';
import path from 'node:path';
import { test, expect, fixturesDir } from './app-fixture';
import { dragPathsOnto } from './drag';
import { createAssistant } from './helpers';
import { TID } from '../renderer/src/testids';

test('deleting an assistant takes away the import undo toast, which would undo the import instead (bug 9)', async ({ app, page }) => {
  const folder = path.join(app.scratch, 'delta-drop');
  fs.cpSync(path.join(fixturesDir, 'drop', 'delta-drop'), folder, { recursive: true });
  await app.open(page);
  await dragPathsOnto(page, [folder]);
  await expect(page.getByTestId(TID.importSummary)).toBeVisible();
  await page.getByTestId(TID.importSummaryClose).click();
  const undo = page.getByTestId(TID.undoButton);
  await expect(undo).toBeVisible();

  await createAssistant(page, 'Short-lived');
  await page.getByTestId(TID.assistantDelete).click();
  await page.locator('.arco-popconfirm').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId(TID.assistantEditor)).toBeHidden();
  await expect(undo).toBeHidden();
  // The import is still there: nothing was undone.
  expect(fs.existsSync(path.join(app.home, 'library', 'delta-drop', 'SKILL.md'))).toBe(true);
});
