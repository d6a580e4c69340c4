import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { importFixtureSkills, patchSettings } from './helpers';
import { TID, pageId, rowId } from '../renderer/src/testids';

// The usage ledger in the window: a Claude Code transcript under the user's ~/.claude/projects
// (the shape the real CLI writes, e2e/agents/usage.test.ts) says alpha-notes was loaded once; after
// the opted-in scan the Skills page tags alpha-notes as used and the others as never used in 90
// days, and the unused filter shows only those. The Agents page tags a skill deployed to Claude Code
// as unused and turns it off for that agent in one action.

const words = {
  en: { used: 'used 1 time in 90 days', never: 'never used in 90 days', filter: 'Unused in 90 days' },
  ja: { used: '90 日間で 1 回使用', never: '90 日間未使用', filter: '90 日間未使用' },
} as const;

function transcript(userHome: string, skill: string): void {
  const dir = path.join(userHome, '.claude', 'projects', '-work-project');
  fs.mkdirSync(dir, { recursive: true });
  const t = new Date().toISOString();
  const lines = [
    { type: 'user', sessionId: 's1', uuid: 'u1', timestamp: t, message: { role: 'user', content: 'Take notes.' } },
    {
      type: 'assistant',
      sessionId: 's1',
      uuid: 'u2',
      timestamp: t,
      message: { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01', name: 'Skill', input: { skill } }] },
    },
  ];
  fs.writeFileSync(path.join(dir, 's1.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\nnot json\n`);
}

const row = (name: string) => `[data-testid^="${TID.skillRow}"][data-skill-name="${name}"]`;

for (const lang of ['en', 'ja'] as const) {
  test(`usage tags on the Skills page and the unused filter (${lang})`, async ({ app, page }) => {
    await importFixtureSkills(app, ['alpha-notes', 'beta-review', 'gamma-docs']);
    transcript(app.userHome, 'alpha-notes');
    await patchSettings(app, { language: lang, usageReadLogs: true });
    const scan = await app.call<{ logs: { claude: { bad: number } } }>('usageScan', {});
    expect(scan.logs.claude.bad).toBe(1);
    await app.open(page);
    await page.getByTestId(TID.navSkills).click();
    await expect(page.getByTestId(pageId('skills'))).toBeVisible();
    const w = words[lang];

    const alpha = page.locator(row('alpha-notes')).getByTestId(TID.skillBadgeUsage);
    await expect(alpha).toHaveAttribute('data-used', '1');
    await expect(alpha).toHaveText(w.used);
    const beta = page.locator(row('beta-review')).getByTestId(TID.skillBadgeUsage);
    await expect(beta).toHaveAttribute('data-used', '0');
    await expect(beta).toContainText(w.never);

    const filter = page.getByTestId(TID.skillsFilterUnused);
    await expect(filter).toHaveText(w.filter);
    await filter.click();
    await expect(page.locator(row('beta-review'))).toBeVisible();
    await expect(page.locator(row('gamma-docs'))).toBeVisible();
    await expect(page.locator(row('alpha-notes'))).toHaveCount(0);
    await filter.click();
    await expect(page.locator(row('alpha-notes'))).toBeVisible();
    await expect(page.locator('body')).not.toContainText('{{');
  });
}

test('the Agents page tags a deployed skill never used in 90 days and turns it off for that agent', async ({ app, page }) => {
  await importFixtureSkills(app, ['alpha-notes', 'beta-review']);
  transcript(app.userHome, 'alpha-notes');
  await patchSettings(app, { language: 'en', usageReadLogs: true });
  await app.call('usageScan', {});
  await app.call('deploySet', { skills: ['alpha-notes', 'beta-review'], agents: ['claude'], mode: 'link' });
  await app.open(page);
  await page.getByTestId(TID.navAgents).click();
  await expect(page.getByTestId(pageId('agents'))).toBeVisible();
  await page.getByTestId(rowId(TID.agentCard, 'claude')).click();
  const rows = page.locator(`[data-testid^="${TID.agentSkillRow}"]`);
  const beta = rows.filter({ hasText: 'beta-review' });
  await expect(beta.getByTestId(TID.agentSkillUsage)).toHaveAttribute('data-used', '0');
  await expect(beta.getByTestId(TID.agentSkillUsage)).toContainText('never used in 90 days');
  await expect(rows.filter({ hasText: 'alpha-notes' }).getByTestId(TID.agentSkillUsage)).toHaveAttribute('data-used', '1');

  const off = page.getByTestId(rowId(TID.agentTurnOffUnused, 'claude'));
  await expect(off).toHaveText('Turn off 1 unused skill for this agent');
  await off.click();
  await page.locator('.arco-popconfirm').getByRole('button', { name: 'OK' }).click();
  await expect
    .poll(async () => {
      const s = await app.call<{ cells: Array<{ skill: string; agent: string; wanted: string | null }> }>('deployStatus', {});
      return s.cells.find((c) => c.skill === 'beta-review' && c.agent === 'claude')?.wanted ?? null;
    })
    .toBeNull();
  await expect(rows.filter({ hasText: 'beta-review' })).toHaveCount(0);
  await expect(rows.filter({ hasText: 'alpha-notes' })).toHaveCount(1);
});

test('an agent whose log format changed: its usage is "unknown", not "never used", and the unused filter is off', async ({ app, page }) => {
  await importFixtureSkills(app, ['alpha-notes']);
  const dir = path.join(app.userHome, '.claude', 'projects', '-work-project');
  fs.mkdirSync(dir, { recursive: true });
  // JSON lines in a shape this SkillDock does not know (a future Claude Code, say).
  const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ kind: 'turn', n: i, call: { tool: 'Skill', arg: 'alpha-notes' } }));
  fs.writeFileSync(path.join(dir, 's2.jsonl'), `${lines.join('\n')}\n`);
  await patchSettings(app, { language: 'en', usageReadLogs: true });
  expect((await app.call<{ unknown: string[] }>('usageScan', {})).unknown).toEqual(['claude']);
  await app.open(page);
  await page.getByTestId(TID.navSkills).click();
  const alpha = page.locator(row('alpha-notes')).getByTestId(TID.skillBadgeUsage);
  await expect(alpha).toHaveAttribute('data-used', 'unknown');
  await expect(alpha).toHaveText("usage unknown: an agent's log format changed");
  await expect(page.getByTestId(TID.skillsFilterUnused)).toBeDisabled();
});
