import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type SkillDockApp } from './app-fixture';
import { importFixtureSkills, patchSettings } from './helpers';
import { shot } from './shots';
import { NAV_TID, PAGES, TID, pageId, rowId } from '../renderer/src/testids';

// Accessibility over every page, in both themes and two languages: axe-core (WCAG 2.x A and AA
// rules) runs in the real page after each screen settles. Any colour-contrast finding fails the
// test. Other serious and critical findings (ARIA structure inside Arco's tabs and trees, unlabelled
// inputs) are printed with their nodes, not failed on yet: they are listed in issue 23's report.

const NAV = NAV_TID;
const SKILLS_WORD = { en: 'Skills', ja: 'スキル' } as const;

interface Finding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe over the whole document; findings are collected, not thrown, so one run lists them all. */
async function audit(page: Page, screen: string, out: Finding[]): Promise<void> {
  // Arco animates drawers, modals and tab ink: measure the settled colours, not a fade.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, { timeout: 10_000 });
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  for (const v of result.violations) {
    if (v.id !== 'color-contrast' && v.impact !== 'serious' && v.impact !== 'critical') continue;
    out.push({
      screen,
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
    });
  }
}

/** A library skill with scripts and YAML, so the file viewer's highlighter shows every token kind. */
function scriptedSkill(app: SkillDockApp): string {
  const dir = path.join(app.scratch, 'colour-check');
  fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'SKILL.md'),
    '---\nname: colour-check\ndescription: Checks colours in every theme.\nlicense: MIT\nmetadata:\n  version: "1.2"\n  retries: 3\n---\n\n# Colour check\n\nRun `scripts/run.sh` with **care**; see [the docs](https://example.com).\n',
  );
  fs.writeFileSync(
    path.join(dir, 'scripts', 'run.sh'),
    '#!/usr/bin/env bash\n# Check every page\nset -e\nfor f in "$@"; do\n  echo "checking $f" 42\ndone\n',
  );
  fs.writeFileSync(path.join(dir, 'scripts', 'config.yaml'), '# settings\nname: colour-check\nretries: 3\nenabled: true\nlabel: "AA"\n');
  return dir;
}

async function openDrawerTabs(page: Page, screen: string, out: Finding[]): Promise<void> {
  await page.getByTestId(rowId(TID.skillRow, 'library/colour-check')).click();
  await expect(page.getByTestId(TID.skillDrawer)).toBeVisible();
  for (const tab of ['overview', 'body', 'files', 'diagnostics', 'security'] as const) {
    await page.getByTestId(rowId(TID.skillTab, tab)).click();
    if (tab === 'files') {
      for (const file of ['scripts/run.sh', 'scripts/config.yaml']) {
        await page.getByTestId(rowId(TID.skillFile, file)).click();
        await expect(page.locator('.code-view .tok-comment').first()).toBeVisible();
        await audit(page, `${screen} drawer files ${file}`, out);
      }
      continue;
    }
    await audit(page, `${screen} drawer ${tab}`, out);
  }
  await page.getByTestId(TID.skillDrawerClose).click();
  await expect(page.getByTestId(TID.skillDrawer)).toBeHidden();
}

for (const lang of ['en', 'ja'] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`every page passes axe (contrast and serious rules), ${theme} theme, ${lang}`, async ({ app, page }) => {
      test.setTimeout(240_000);
      await importFixtureSkills(app, ['alpha-notes', 'beta-review']);
      await app.call('importPaths', { paths: [scriptedSkill(app)] });
      const a = await app.call<{ id: string }>('createAssistant', {
        name: 'Docs Writer',
        agent: 'claude',
        skills: ['alpha-notes'],
        rules: '# Persona\n\nWrite **clear** docs.',
      });
      await app.call('launchAssistant', { assistant: a.id });
      // A trashed skill whose name is taken again: restoring it asks with a warning button.
      await app.call('deleteSkill', { name: 'beta-review' });
      await importFixtureSkills(app, ['beta-review']);
      await patchSettings(app, { language: lang, theme });
      await app.open(page);
      await expect(page.getByTestId(TID.navSkills)).toHaveText(SKILLS_WORD[lang]);
      if (theme === 'dark') await expect(page.locator('body')).toHaveAttribute('arco-theme', 'dark');
      else await expect(page.locator('body')).not.toHaveAttribute('arco-theme', 'dark');

      const found: Finding[] = [];
      const at = `${theme} ${lang}`;
      for (const p of PAGES) {
        await page.getByTestId(NAV[p]).click();
        await expect(page.getByTestId(pageId(p))).toBeVisible();
        if (p === 'skills') await expect(page.getByTestId(rowId(TID.skillRow, 'library/colour-check'))).toBeVisible();
        if (p === 'assistants') await page.getByTestId(rowId(TID.assistantRow, a.id)).click();
        await audit(page, `${at} ${p}`, found);
        if (p === 'skills') await openDrawerTabs(page, at, found);
        if (p === 'library') {
          for (const tab of ['trash', 'history', 'adopt', 'skills'] as const) {
            await page.getByTestId(rowId(TID.libraryTab, tab)).click();
            if (tab === 'trash') {
              const row = page.locator(`[data-testid^="${TID.trashRow}-"][data-name="beta-review"]`);
              await row.getByRole('button').click();
              await expect(page.getByTestId(TID.restoreReplace)).toBeVisible();
              await audit(page, `${at} library trash restore-conflict`, found);
              await shot(page, `a11y-restore-conflict-${theme}-${lang}`);
              await page.keyboard.press('Escape');
              await expect(page.getByTestId(TID.restoreReplace)).toBeHidden();
            }
            await audit(page, `${at} library ${tab}`, found);
          }
        }
      }

      // The editor page, with YAML frontmatter and Markdown in CodeMirror
      await page.getByTestId(NAV.library).click();
      await page.getByTestId(rowId(TID.libraryTab, 'skills')).click();
      await page.getByTestId(rowId(TID.libraryEdit, 'colour-check')).click();
      await expect(page.getByTestId(TID.editorCode).locator('.cm-content')).toContainText('name: colour-check');
      await expect(page.getByTestId(TID.editorCode).locator('.tok-propertyName').first()).toBeVisible();
      await audit(page, `${at} editor`, found);
      await shot(page, `a11y-editor-${theme}-${lang}`);
      for (const tab of ['agents', 'preview', 'form'] as const) {
        // the tab strip's overflow wrapper sits over the last tab in Japanese: click the tab itself
        await page.getByTestId(rowId(TID.editorPanelTab, tab)).dispatchEvent('click');
        await audit(page, `${at} editor ${tab}`, found);
      }

      for (const f of found) console.log(`[axe] ${f.screen}: ${f.rule} (${f.impact}) ${f.help}\n  ${f.nodes.join('\n  ')}`);
      expect(
        found.filter((f) => f.rule === 'color-contrast').map((f) => `${f.screen}: ${f.nodes.join(' | ')}`),
        'axe colour-contrast findings',
      ).toEqual([]);
    });
  }
}
