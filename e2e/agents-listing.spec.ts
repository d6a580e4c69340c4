import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { patchSettings } from './helpers';
import { shot } from './shots';
import { TID, pageId, rowId } from '../renderer/src/testids';

// The Agents page says, per skill, what Claude Code's model is shown: in full, cut, or name only
// (the listing model measured on the real CLI, e2e/agents/listing.test.ts), in English and Chinese.

const words = {
  en: { full: 'listed in full', cut: 'description cut to 1536 characters', nameOnly: 'name only', notListed: "not in its model's listing" },
  'zh-CN': { full: '完整列出', cut: '描述截短为 1536 个字符', nameOnly: '仅名称', notListed: '不在其模型的列表中' },
} as const;

function skill(root: string, name: string, description: string, extra = ''): void {
  fs.mkdirSync(path.join(root, name), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n${extra}---\nBody.\n`);
}

for (const lang of ['en', 'zh-CN'] as const) {
  test(`the Agents page shows what Claude Code's model is shown of each skill (${lang})`, async ({ app, page }) => {
    const root = path.join(app.userHome, '.claude', 'skills');
    skill(root, 'a-short', 'A short description.');
    skill(root, 'b-long', 'x'.repeat(2000));
    skill(root, 'a-user-only', 'Started by the user.', 'disable-model-invocation: true\n');
    // 30 descriptions of 1,000 characters: past Claude Code's listing budget the last are names only
    for (let i = 10; i < 40; i++) skill(root, `c-bulk-${i}`, `${i} ${'y'.repeat(997)}`);
    await patchSettings(app, { language: lang });
    await app.open(page);
    await page.getByTestId(TID.navAgents).click();
    await expect(page.getByTestId(pageId('agents'))).toBeVisible();
    await page.getByTestId(rowId(TID.agentCard, 'claude')).click();
    const row = (id: string) => page.getByTestId(rowId(TID.agentSkillRow, id));
    const w = words[lang];
    await expect(row('user:.claude/skills/a-short').getByTestId('agent-shown')).toHaveText(w.full);
    await expect(row('user:.claude/skills/b-long').getByTestId('agent-shown')).toHaveText(w.cut);
    // Loaded, but Claude Code keeps it from its model (`disable-model-invocation: true`), and says why.
    await expect(row('user:.claude/skills/a-user-only').getByTestId('agent-shown')).toHaveText(w.notListed);
    await expect(row('user:.claude/skills/a-user-only').getByTestId('agent-shown')).toHaveAttribute('title', /disable-model-invocation/);
    await expect(page.getByTestId('agent-shown').filter({ hasText: w.nameOnly }).first()).toBeVisible();
    await expect(page.locator('body')).not.toContainText('{{');
    // Claude Code is guarded by its hook; Qwen Code only gets the rules; the same-name rule is worded.
    await expect(page.getByTestId(TID.agentGuard)).toHaveAttribute('data-guard', 'hook');
    await expect(page.getByTestId(TID.agentGuard)).toContainText(lang === 'en' ? 'a hook the agent runs' : '钩子');
    if (lang === 'zh-CN') await expect(page.locator('body')).not.toContainText('user-wins');
    for (const theme of ['light', 'dark'] as const) {
      await patchSettings(app, { theme });
      if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
      else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');
      await row('user:.claude/skills/b-long').scrollIntoViewIfNeeded();
      await shot(page, `agents-listing-${theme}-${lang}`);
    }
  });
}
