import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './app-fixture';
import { patchSettings } from './helpers';
import { shot } from './shots';
import { TID } from '../renderer/src/testids';

// An import a crash interrupted leaves its write-ahead log behind. The app says so when it opens,
// in the user's language, and Repair rolls it back: the half-placed skill goes, the library is as it was.

for (const lang of ['en', 'ja'] as const) {
  test(`an interrupted import is reported at start and repaired from the window (${lang})`, async ({ app, page }) => {
    const lib = path.join(app.home, 'library');
    const half = path.join(lib, 'half-placed');
    fs.mkdirSync(half, { recursive: true });
    fs.writeFileSync(path.join(half, 'SKILL.md'), '---\nname: half-placed\ndescription: Placed just before the crash.\n---\n');
    const pending = path.join(app.home, 'pending-operation.jsonl');
    fs.writeFileSync(
      pending,
      [
        JSON.stringify({ op: 'import', time: '2026-12-01T10:00:00.000Z', pid: 999999 }),
        JSON.stringify({ kind: 'created', path: half }),
        '{"kind":"created","pa', // the line being written when the process died
      ].join('\n'),
    );
    await patchSettings(app, { language: lang });
    await app.open(page);
    const banner = page.getByTestId(TID.doctorBanner);
    await expect(banner).toBeVisible();
    if (lang === 'ja') await expect(banner).toContainText('取り込みが中断されました');
    else await expect(banner).toContainText('An import begun');
    await expect(page.getByText('{{')).toHaveCount(0);
    await shot(page, `doctor-banner-${lang}`);
    await page.getByTestId(TID.doctorRepair).click();
    await expect(page.getByTestId(TID.doctorDone)).toBeVisible();
    await expect(banner).toHaveCount(0);
    expect(fs.existsSync(half)).toBe(false);
    expect(fs.existsSync(pending)).toBe(false);
  });
}

test('a damaged assistants.json found before the window opened is said when it opens (zh-CN)', async ({ app, page }) => {
  await patchSettings(app, { language: 'zh-CN' });
  fs.writeFileSync(path.join(app.home, 'assistants.json'), '{"version":1,"data":{"assis');
  // The engine meets the damaged file (a CLI or the server reading it) before any window listens.
  await app.call('listAssistants', {});
  await app.open(page);
  const said = page.getByTestId(TID.doctorCorrupt);
  await expect(said).toBeVisible();
  await expect(said).toContainText('assistants.json');
  await expect(said).toContainText('已移到');
  await expect(said).toContainText('不是有效的 JSON');
  await expect(said).not.toContainText('not valid JSON');
  await expect(page.getByText('{{')).toHaveCount(0);
  await shot(page, 'doctor-corrupt-zh-CN');
});

// Issue 32, break 7: a journal line that cannot be read is said in the user's language (the
// engine's coded warning), and a repair keeps the damaged copy aside.
test('a damaged journal is said when the window opens, and is gone once repaired with the damaged copy kept (zh-CN)', async ({
  app,
  page,
}) => {
  await patchSettings(app, { language: 'zh-CN' });
  const entry = { id: 'a-1', op: 'import', time: '2026-12-01T10:00:00.000Z', summary: 'a (imported)', changes: [] };
  fs.writeFileSync(
    path.join(app.home, 'journal.jsonl'),
    `${JSON.stringify(entry).slice(0, 40)}\n${JSON.stringify({ ...entry, id: 'b-2' })}\n`,
  );
  await app.open(page);
  const said = page.getByTestId(TID.doctorJournal);
  await expect(said).toBeVisible();
  await expect(said).toContainText('日志中有无法读取的行（1）');
  await expect(said).not.toContainText('could not be read');
  await app.call('doctor', { repair: true });
  await page.reload();
  await expect(page.getByTestId(TID.doctorJournal)).toHaveCount(0);
  const kept = fs.readdirSync(app.home).filter((n) => n.startsWith('journal.jsonl.damaged-'));
  expect(kept).toHaveLength(1);
  await expect(page.getByText('{{')).toHaveCount(0);
});
