import fs from 'node:fs';
import path from 'node:path';
import { test, expect, fixturesDir } from './app-fixture';
import { dragPathsOnto, zipFolder } from './drag';
import { shot } from './shots';
import { TID, rowId } from '../renderer/src/testids';

test('dropping a skill folder and a zip imports both and lists them with their diagnostics', async ({ app, page }) => {
  const folder = path.join(app.scratch, 'delta-drop');
  fs.cpSync(path.join(fixturesDir, 'drop', 'delta-drop'), folder, { recursive: true });
  const zip = path.join(app.scratch, 'epsilon.zip');
  await zipFolder(path.join(fixturesDir, 'zip', 'epsilon-zip'), zip);

  await app.open(page);
  await dragPathsOnto(page, [folder, zip]);

  const summary = page.getByTestId(TID.importSummary);
  await expect(summary).toBeVisible();
  await expect(summary.getByTestId(rowId(TID.importResultRow, 'delta-drop'))).toHaveAttribute('data-status', 'imported');
  await expect(summary.getByTestId(rowId(TID.importResultRow, 'epsilon-zip'))).toHaveAttribute('data-status', 'imported');
  await shot(page, 'import-summary-light-en');
  await page.getByTestId(TID.importSummaryClose).click();

  // On disk: real copies in the library, the script included; the uploaded batch is gone once imported (bug 8).
  expect(fs.readFileSync(path.join(app.home, 'library', 'delta-drop', 'scripts', 'summarise.sh'), 'utf8')).toContain('uniq -c');
  expect(fs.existsSync(path.join(app.home, 'library', 'epsilon-zip', 'SKILL.md'))).toBe(true);
  const uploads = () => fs.readdirSync(path.join(app.home, 'uploads'));
  expect(uploads()).toEqual([]);

  // A changed copy dropped again: its batch waits while the conflict is asked, and goes after the answer (skip).
  fs.appendFileSync(path.join(folder, 'SKILL.md'), '\nChanged.\n');
  await dragPathsOnto(page, [folder]);
  await expect(page.getByTestId(TID.conflictDialog)).toBeVisible();
  // It names what the user dropped, never SkillDock's upload copy of it (bug 2).
  await expect(page.getByTestId(TID.conflictDialog)).toContainText('delta-drop');
  await expect(page.getByTestId(TID.conflictDialog)).not.toContainText('uploads');
  await expect(page.getByTestId(TID.conflictDialog)).not.toContainText('.skilldock');
  expect(uploads()).toHaveLength(1);
  await page.getByTestId(TID.conflictSkip).click();
  await expect(summary.getByTestId(rowId(TID.importResultRow, 'delta-drop'))).toHaveAttribute('data-status', 'skipped');
  await expect.poll(uploads).toEqual([]);
  await page.getByTestId(TID.importSummaryClose).click();

  // Listed, with their diagnostics as badges.
  const delta = page.getByTestId(rowId(TID.skillRow, 'library/delta-drop'));
  const epsilon = page.getByTestId(rowId(TID.skillRow, 'library/epsilon-zip'));
  await expect(delta).toBeVisible();
  await expect(epsilon).toBeVisible();
  await expect(delta.getByTestId(TID.skillBadgeWarnings)).toBeVisible();
  await expect(epsilon.getByTestId(TID.skillBadgeErrors)).toBeVisible();

  // The drawer names the finding with file:line.
  await epsilon.click();
  const drawer = page.getByTestId(TID.skillDrawer);
  await expect(drawer).toBeVisible();
  await drawer.getByRole('tab', { name: /Diagnostics/ }).click();
  const diagnostics = drawer.getByTestId(TID.skillDiagnostics);
  await expect(diagnostics).toBeVisible();
  await expect(diagnostics).toContainText('metadata-not-map');
  await expect(diagnostics).toContainText(/SKILL\.md:\d+/);
  await shot(page, 'skill-drawer-diagnostics-light-en');
});
