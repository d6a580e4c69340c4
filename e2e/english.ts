import type { Page } from '@playwright/test';
import { expect } from './app-fixture';
import { ENGINE_MESSAGES } from '../src/contract/messages';

/** Literal pieces of every English engine template long enough to be a sentence, not a name. */
export const ENGLISH = [
  ...new Set(
    Object.values(ENGINE_MESSAGES as Record<string, string>).flatMap((tpl) =>
      tpl
        .split(/\{\{[^}]+\}\}/)
        .map((s) => s.trim())
        .filter((s) => s.length >= 14 && /[a-z]{3,} [a-z]{2,}/.test(s)),
    ),
  ),
];

/** In a Chinese or Japanese window: no English engine sentence and no raw `{{placeholder}}` on screen. */
export async function expectNoEnglish(page: Page, where: string): Promise<void> {
  const text = await page.locator('body').innerText();
  const hits = ENGLISH.filter((s) => text.includes(s));
  expect(hits, `${where}: English engine text on screen`).toEqual([]);
  expect(text, where).not.toContain('{{');
  expect(text, where).not.toMatch(/skilldock approve/);
}
