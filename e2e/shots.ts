import type { Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import { screenshotsDir } from './app-fixture';

/** Save a full-page screenshot as a test artifact: artifacts/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}
