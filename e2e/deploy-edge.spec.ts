import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { setLanguage } from './helpers';
import { TID, pageId, rowId } from '../renderer/src/testids';

// The Deployments page in Chromium, in English and Simplified Chinese: an agent folder on another
// filesystem than the library gets copies and the page says so; keeping the edit of a copy that
// the library changed too stops at the conflict, shown in the dialog source updates use, and the
// choice made there lands in the library and in every copy.

const cell = (skill: string, agent: string) => rowId(TID.deployCell, `${skill}--${agent}`);
const SHM = '/dev/shm';
const words = {
  en: { other: 'on another filesystem', copy: 'Copy' },
  'zh-CN': { other: '不同的文件系统', copy: '副本' },
};

for (const lang of ['en', 'zh-CN'] as const) {
  test(`an agent folder on another filesystem gets copies and the page says so (${lang})`, async ({ app, page }) => {
    test.skip(!fs.existsSync(SHM) || fs.statSync(SHM).dev === fs.statSync(app.home).dev, `${SHM} is not another filesystem here`);
    const shm = fs.mkdtempSync(path.join(SHM, 'sd-e2e-deploy-'));
    try {
      fs.mkdirSync(path.join(shm, 'claude'));
      fs.symlinkSync(path.join(shm, 'claude'), path.join(app.userHome, '.claude'));
      await app.call('createSkill', { name: 'helper', description: 'Helps with the task at hand.' });
      await app.open(page);
      await setLanguage(app, page, lang);
      await page.getByTestId(TID.navDeploy).click();
      await expect(page.getByTestId(pageId('deploy'))).toBeVisible();
      await expect(page.getByTestId(TID.deployFolderNotice)).toContainText(words[lang].other);
      await page.getByTestId(cell('helper', 'claude')).getByTestId(TID.deployCellSwitch).click();
      await expect(page.getByTestId(TID.deployNotice)).toContainText(words[lang].other);
      const placed = path.join(app.userHome, '.claude', 'skills', 'helper');
      await expect.poll(() => fs.lstatSync(placed, { throwIfNoEntry: false })?.isDirectory() ?? false).toBe(true);
      expect(fs.lstatSync(placed).isSymbolicLink()).toBe(false);
      await expect(page.getByTestId(cell('helper', 'claude'))).toHaveAttribute('data-on', 'true');
    } finally {
      fs.rmSync(shm, { recursive: true, force: true });
    }
  });

  test(`keeping an edit the library changed too: the conflict dialog, then the copy's line everywhere (${lang})`, async ({ app, page }) => {
    await app.call('createSkill', { name: 'helper', description: 'Helps with the task at hand.' });
    await app.call('deploySet', { skills: ['helper'], agents: ['codex', 'qwen'], mode: 'copy' });
    const lib = path.join(app.home, 'library', 'helper', 'SKILL.md');
    const codex = path.join(app.userHome, '.codex', 'skills', 'helper', 'SKILL.md');
    const qwen = path.join(app.userHome, '.qwen', 'skills', 'helper', 'SKILL.md');
    const text = fs.readFileSync(lib, 'utf8');
    const line = text.split('\n').find((l) => l.startsWith('description:'))!;
    fs.writeFileSync(codex, text.replace(line, 'description: As the copy has it.'));
    fs.writeFileSync(lib, text.replace(line, 'description: As the library has it.'));
    await app.open(page);
    await setLanguage(app, page, lang);
    await page.getByTestId(TID.navDeploy).click();
    const row = page.getByTestId(rowId(TID.deployConflict, 'helper'));
    await expect(row).toBeVisible();
    await row.getByTestId(TID.deployKeepEdit).click();
    await expect(page.getByTestId(TID.updateConflictDialog)).toBeVisible();
    await expect(page.getByTestId(rowId(TID.updateConflictFile, 'SKILL.md'))).toBeVisible();
    expect(fs.readFileSync(lib, 'utf8')).toContain('As the library has it.'); // nothing changed yet
    await page.getByTestId(TID.updateConflictAllUpstream).click();
    await page.getByTestId(TID.updateConflictApply).click();
    await expect.poll(() => fs.readFileSync(lib, 'utf8')).toContain('As the copy has it.');
    await expect.poll(() => fs.readFileSync(qwen, 'utf8')).toContain('As the copy has it.');
    await expect(page.getByTestId(rowId(TID.deployConflict, 'helper'))).toHaveCount(0);
  });
}
