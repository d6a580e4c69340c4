import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { patchSettings } from './helpers';
import { fakeClaude } from '../test/support/fake-agent';
import { TID, rowId } from '../renderer/src/testids';

// "Check with the real agent" on the Agents page: the engine runs the agent CLI set in settings once
// against its loopback recorder and the page sets the capture beside the prediction, a difference
// highlighted with what to do. The CLI here is a stand-in script that drops one long description
// (a real process, the real recorder); the six real CLIs are proven in e2e/agents/verify.test.ts.

const words = {
  en: {
    button: 'Check with the real agent',
    differs: 'Differs',
    nameOnly: 'Name only',
    advice: 'only this skill',
    summary: '1 difference',
  },
  ja: {
    button: '実際のエージェントで確認',
    differs: '相違',
    nameOnly: '名前のみ',
    advice: 'このスキルの名前しか見えません',
    summary: '違いが 1 件',
  },
} as const;

function skill(root: string, name: string, description: string): void {
  fs.mkdirSync(path.join(root, name), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`);
}

for (const lang of ['en', 'ja'] as const) {
  test(`the Agents page checks with the real agent and highlights a difference (${lang})`, async ({ app, page }) => {
    test.setTimeout(90_000);
    const root = path.join(app.userHome, '.claude', 'skills');
    skill(root, 'brief', 'Short and sweet.');
    skill(root, 'wordy', 'A description long enough that the stand-in CLI lists this skill by name only, not in full.');
    await patchSettings(app, { language: lang, agentCli: { claude: fakeClaude(path.join(app.scratch, 'bin')) } });
    await expect
      .poll(async () => JSON.stringify(await app.call('agentView', { agent: 'claude' })).includes('wordy'), { timeout: 15_000 })
      .toBe(true);
    await app.open(page);
    await page.getByTestId(TID.navAgents).click();
    await page.getByTestId(rowId(TID.agentCard, 'claude')).click();
    const w = words[lang];
    const button = page.getByTestId(TID.agentVerify);
    await expect(button).toHaveText(w.button);
    await button.click();

    const result = page.getByTestId(TID.agentVerifyResult);
    await expect(result).toHaveAttribute('data-differences', '1', { timeout: 60_000 });
    await expect(result).toContainText(w.summary);
    const wordy = page.getByTestId(rowId(TID.agentVerifyRow, 'wordy'));
    await expect(wordy).toHaveAttribute('data-same', 'false');
    await expect(wordy).toHaveAttribute('data-captured', 'name-only');
    await expect(wordy).toHaveClass(/verify-diff/);
    await expect(wordy).toContainText(w.differs);
    await expect(wordy).toContainText(w.nameOnly);
    await expect(wordy).toContainText(w.advice);
    const brief = page.getByTestId(rowId(TID.agentVerifyRow, 'brief'));
    await expect(brief).toHaveAttribute('data-same', 'true');
    await expect(brief).not.toHaveClass(/verify-diff/);
    // The difference is listed first, and the page is worded, not keyed.
    await expect(page.locator(`[data-testid^="${TID.agentVerifyRow}"]`).first()).toHaveAttribute('data-same', 'false');
    await expect(page.locator('body')).not.toContainText('{{');
    await expect(page.locator('body')).not.toContainText('verify.advice');
    if (process.env.SHOT_DIR) await page.screenshot({ path: path.join(process.env.SHOT_DIR, `agents-verify-${lang}.png`), fullPage: true });
  });
}
