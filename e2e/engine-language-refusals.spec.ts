import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, type SkillDockApp } from './app-fixture';
import { patchSettings } from './helpers';
import { shot } from './shots';
import { TID, rowId, pageId } from '../renderer/src/testids';
import { expectNoEnglish } from './english';

// Engine refusals that used to be English only, seen where a user meets them, in Traditional Chinese
// and Japanese: a launch whose assistant's custom agent was removed in Settings (catalog.unknown-agent,
// with the known agents as a list), and the approval diff of a changed binary script (its note and
// the scan's name for the format).

const WORDS = {
  'zh-TW': { unknownAgent: '未知的代理「mine」', binary: '二進位檔案', elf: 'ELF 可執行檔', security: /安全性/ },
  ja: { unknownAgent: '不明なエージェント「mine」', binary: 'バイナリファイル', elf: 'ELF 実行ファイル', security: /セキュリティ/ },
} as const;

async function theme(app: SkillDockApp, page: Page, which: 'light' | 'dark'): Promise<void> {
  await patchSettings(app, { theme: which });
  if (which === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
  else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
}

for (const lang of ['zh-TW', 'ja'] as const) {
  test(`in ${lang}: a launch with a removed custom agent and a changed binary script are worded in ${lang}`, async ({ app, page }) => {
    const w = WORDS[lang];
    // Expected refusals are answers the page shows, not console errors (issue 23 item 19: a 4xx per
    // refusal, 23 in one walk, hid real failures).
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    // A custom agent, an assistant that uses it, then the agent removed in Settings.
    const mine = { id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'MINE.md' };
    await patchSettings(app, { language: lang, customAgents: [mine] });
    const assistant = await app.call<{ id: string }>('createAssistant', { name: 'Orphan', agent: 'mine', skills: [] });
    await patchSettings(app, { customAgents: [] });

    // A skill with a binary script, approved, then the binary changes.
    const skill = path.join(app.scratch, 'bin-tool');
    fs.mkdirSync(path.join(skill, 'scripts'), { recursive: true });
    fs.writeFileSync(
      path.join(skill, 'SKILL.md'),
      '---\nname: bin-tool\ndescription: Runs a helper. Use when asked.\n---\n\nRun scripts/tool.bin.\n',
    );
    fs.writeFileSync(path.join(skill, 'scripts', 'tool.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]), { mode: 0o755 });
    await app.call('importPaths', { paths: [skill] });
    const inLibrary = path.join(app.home, 'library', 'bin-tool');
    await app.call('approveSkill', { dir: inLibrary });
    fs.writeFileSync(path.join(inLibrary, 'scripts', 'tool.bin'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 9, 9, 9]));

    await app.open(page);

    // The launch: refused by the engine, in the user's language, naming the agent and the ones there are.
    await page.getByTestId(TID.navAssistants).click();
    await page.getByTestId(rowId(TID.assistantRow, assistant.id)).click();
    await page.getByTestId(TID.assistantLaunch).click();
    await expect(page.getByTestId(pageId('launch'))).toBeVisible();
    await page.getByTestId(TID.launchModeTemp).click();
    await page.getByTestId(TID.launchStart).click();
    const error = page.getByTestId(pageId('launch')).locator('.arco-alert-error');
    await expect(error).toContainText(w.unknownAgent);
    await expect(error).toContainText('claude');
    await expect(error).not.toContainText('Unknown agent');
    await expectNoEnglish(page, 'launch with a removed agent');
    for (const which of ['light', 'dark'] as const) {
      await theme(app, page, which);
      await shot(page, `engine-refusal-unknown-agent-${which}-${lang}`);
    }
    await theme(app, page, 'light');

    // The approval diff of the changed binary: no line diff, and the note says why in the user's language.
    await page.getByTestId(TID.navSkills).click();
    await page.getByTestId(rowId(TID.skillRow, 'library/bin-tool')).click();
    const drawer = page.getByTestId(TID.skillDrawer);
    await drawer.getByRole('tab', { name: w.security }).click();
    const diff = drawer.getByTestId(TID.skillApprovalDiff);
    await expect(diff).toContainText('scripts/tool.bin');
    await expect(diff).toContainText(w.binary);
    await expect(diff).not.toContainText('binary file');
    // The scan finding names the format in the user's language too (scan.binary-label.*).
    await expect(drawer.getByTestId(TID.skillSecurity)).toContainText(w.elf);
    await expect(drawer).not.toContainText('ELF executable');
    await expectNoEnglish(page, 'approval diff of a binary');
    for (const which of ['light', 'dark'] as const) {
      await theme(app, page, which);
      await shot(page, `engine-refusal-binary-diff-${which}-${lang}`);
    }
    expect(consoleErrors).toEqual([]);
  });
}
