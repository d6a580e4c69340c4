import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { patchSettings } from './helpers';
import { TID, pageId, rowId } from '../renderer/src/testids';

// The Agents page lists the skills each agent loads in the order its model is shown them, and says
// how that order is made; where it changes between runs (Gemini CLI), it says so instead. Past Qwen
// Code's 8,000-character listing a multi-line description is reported as cut to its first line.
// The rules are measured on the real CLIs (e2e/agents/listing-text-order.test.ts).

const words = {
  en: { qwen: 'alphabetically by name', gemini: 'changes from run to run', firstLine: 'keeps only the first line' },
  ja: { qwen: '名前のアルファベット順', gemini: '実行のたびに変わります', firstLine: '1 行目だけを残します' },
} as const;

function skill(root: string, name: string, description: string): void {
  fs.mkdirSync(path.join(root, name), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\nBody.\n`);
}

for (const lang of ['en', 'ja'] as const) {
  test(`the Agents page shows each agent's listing order, or that it changes between runs (${lang})`, async ({ app, page }) => {
    const qwen = path.join(app.userHome, '.qwen', 'skills');
    skill(qwen, 'PDF-Tools', 'Works on PDF files.');
    skill(qwen, 'alpha', '|\n  First line.\n  Second line.');
    // Enough text to take Qwen Code's listing block past 8,000 characters.
    for (let i = 0; i < 6; i++) skill(qwen, `bulk-${i}`, 'z'.repeat(600));
    skill(path.join(app.userHome, '.gemini', 'skills'), 'gem', 'A Gemini skill.');
    await patchSettings(app, { language: lang });
    // The folders were made after `serve` started: the engine picks a new root up within a second
    // (watch.ts polls missing roots). This spec is about the page's order, so it starts once the
    // engine lists the skills; once a CI run showed the page with the root still missing after 20 s,
    // and the page never asked again (see the closing note of Dec 7).
    await expect
      .poll(async () => JSON.stringify(await app.call('agentView', { agent: 'qwen' })).includes('PDF-Tools'), { timeout: 15_000 })
      .toBe(true);
    await app.open(page);
    await page.getByTestId(TID.navAgents).click();
    await expect(page.getByTestId(pageId('agents'))).toBeVisible();
    const w = words[lang];

    await page.getByTestId(rowId(TID.agentCard, 'qwen')).click();
    const order = page.getByTestId(TID.agentListingOrder);
    await expect(order).toHaveAttribute('data-stable', 'true');
    await expect(order).toContainText(w.qwen);
    // By localeCompare, as Qwen Code sends them: alpha before PDF-Tools (by code point it would follow).
    const rows = page.locator(`[data-testid^="${TID.agentSkillRow}"]`);
    await expect(rows.first()).toContainText('alpha');
    const ids = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
    expect(ids.findIndex((id) => id.endsWith('/alpha'))).toBeLessThan(ids.findIndex((id) => id.endsWith('/PDF-Tools')));
    await expect(page.getByTestId(rowId(TID.agentSkillRow, 'user:.qwen/skills/alpha'))).toContainText(w.firstLine);

    await page.getByTestId(rowId(TID.agentCard, 'gemini')).click();
    await expect(order).toHaveAttribute('data-stable', 'false');
    await expect(order).toContainText(w.gemini);
    await expect(page.locator('body')).not.toContainText('{{');
    await expect(page.locator('body')).not.toContainText('agent.order');
  });
}
