import type { Page } from '@playwright/test';
import { expect, copyFixtureSkills } from './app-fixture';

/** Anything that can make contract calls: the HTTP door (SkillDockApp) or the Electron bridge. */
export interface Caller {
  scratch: string;
  call<T = unknown>(method: string, input?: unknown): Promise<T>;
}
import { TID } from '../renderer/src/testids';

/** Put fixture skills in the library through the real import (contract call, as a script would). */
export async function importFixtureSkills(app: Caller, names: string[]): Promise<void> {
  const paths = copyFixtureSkills(names, app.scratch);
  const summary = await app.call<{ results: Array<{ name: string; status: string }> }>('importPaths', { paths });
  for (const r of summary.results) expect(r.status, r.name).toBe('imported');
}

/** Change settings the way another window would: only the fields given (the engine merges them). */
export async function patchSettings(app: Caller, patch: Record<string, unknown>): Promise<void> {
  await app.call('updateSettings', patch);
}

/** Change the language from outside the page; the page follows through the event stream. */
export async function setLanguage(app: Caller, page: Page, language: 'en' | 'zh-CN' | 'zh-TW' | 'ja'): Promise<void> {
  // A window's first run saves the browser's language (no language yet on a fresh home); a change
  // saved before that would be overwritten by it, as it would be for a user.
  await expect.poll(async () => (await app.call<{ language: string | null }>('getSettings')).language).not.toBeNull();
  await patchSettings(app, { language });
  const skillsLabel = { en: 'Skills', 'zh-CN': '技能', 'zh-TW': '技能', ja: 'スキル' }[language];
  await expect(page.getByTestId(TID.navSkills)).toHaveText(skillsLabel);
}

/** Create an assistant through the UI and leave its editor open. */
export async function createAssistant(page: Page, name: string): Promise<void> {
  await page.getByTestId(TID.navAssistants).click();
  await page.getByTestId(TID.assistantNew).click();
  await page.getByTestId(TID.assistantCreateName).fill(name);
  await page.getByTestId(TID.assistantCreateOk).click();
  await expect(page.getByTestId(TID.assistantEditor)).toBeVisible();
  await expect(page.getByTestId(TID.assistantName)).toHaveValue(name);
}

/** Attach skills through the "add skills" picker. */
export async function attachSkills(page: Page, names: string[]): Promise<void> {
  await page.getByTestId(TID.assistantAddSkills).click();
  const picker = page.getByTestId(TID.skillPicker);
  await expect(picker).toBeVisible();
  for (const n of names) await picker.getByTestId(`${TID.skillPickerRow}-${n}`).click();
  await page.getByTestId(TID.skillPickerConfirm).click();
  await expect(picker).toBeHidden();
}
