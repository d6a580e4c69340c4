import { test, expect } from './app-fixture';
import { TID, pageId } from '../renderer/src/testids';

test('the browser UI opens with the token from the URL and lists the pages', async ({ app, page }) => {
  await app.open(page);
  await expect(page.getByTestId(TID.navSkills)).toBeVisible();
  // the token left the address bar for sessionStorage
  expect(page.url()).not.toContain('token=');
  expect(
    await page.evaluate(() =>
      (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem('skilldock.token'),
    ),
  ).toBe(app.token);
  await expect(page.getByTestId(pageId('skills'))).toBeVisible();
});
