import { expect, type Page } from '@playwright/test';
import fs from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';

/**
 * A real drag of files and folders from the desktop: the DevTools protocol's
 * `Input.dispatchDragEvent` with disk paths, so the page gets real File objects and directory
 * entries, exactly as from a file manager.
 */
export async function dragPathsOnto(page: Page, paths: string[], at?: { x: number; y: number }): Promise<void> {
  // The window listens for drops from an effect after the first paint: wait until it does.
  await page.locator('[data-testid="drop-overlay"][data-armed="true"]').waitFor({ state: 'attached' });
  const cdp = await page.context().newCDPSession(page);
  const vp = page.viewportSize() ?? { width: 1280, height: 800 };
  const { x, y } = at ?? { x: Math.round(vp.width / 2), y: Math.round(vp.height / 2) };
  const data = { items: [], files: paths, dragOperationsMask: 1 };
  await cdp.send('Input.dispatchDragEvent', { type: 'dragEnter', x, y, data });
  // A hand moving files over a window sends dragover after dragover until the drop; the browser
  // drops only once the page has answered one of them with an allowed effect. One dragover
  // straight before the drop lost that race under load (seen once: the overlay showed, no drop
  // came), so keep dragging over until the page shows it took the drag in, as a hand would, and
  // fail here, naming it, if it never does (a drop then would be lost anyway).
  const overlay = page.locator('[data-testid="drop-overlay"]');
  await expect(async () => {
    await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x, y, data });
    expect(await overlay.getAttribute('aria-hidden'), 'the drop overlay shows the drag was taken in').toBe('false');
  }).toPass({ intervals: [50], timeout: 20_000 });
  await cdp.send('Input.dispatchDragEvent', { type: 'dragOver', x, y, data });
  await cdp.send('Input.dispatchDragEvent', { type: 'drop', x, y, data });
  await cdp.detach();
}

/** Zip a folder (its name becomes the top-level entry) with real zip bytes. */
export function zipFolder(dir: string, zipPath: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const base = path.basename(dir);
  const walk = (d: string, rel: string) => {
    for (const ent of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, ent.name);
      const r = `${rel}/${ent.name}`;
      if (ent.isDirectory()) walk(full, r);
      else zip.addFile(full, r);
    }
  };
  walk(dir, base);
  zip.end();
  return new Promise((resolve, reject) => {
    zip.outputStream
      .pipe(fs.createWriteStream(zipPath))
      .on('close', () => resolve())
      .on('error', reject);
  });
}
