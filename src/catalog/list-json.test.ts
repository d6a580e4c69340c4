import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogService } from './catalog.js';
import { catalogFor, countingAnalyze, sandbox, writeSkill, type Sandbox } from '../../test/support/catalog.js';
import { sleep } from '../../test/support/wait.js';

// `listJson` (what `list --json` prints when piped) against `JSON.stringify(list())`, byte for
// byte, on a catalog with every kind of child and precedence: scanned, from the index, refreshed.

let sb: Sandbox;
const env = { ...process.env };
beforeEach(() => {
  sb = sandbox();
  process.env.SKILLDOCK_INDEX_RACY_MS = '30';
});
afterEach(async () => {
  process.env = { ...env };
  await sb.cleanup();
});

const lib = () => path.join(sb.paths.home, 'library');
const claude = () => path.join(sb.paths.userHome, '.claude', 'skills');

function makeCatalog(): void {
  writeSkill(path.join(lib(), 'alpha'));
  writeSkill(path.join(lib(), 'beta'), { description: 'Beta: café, 日本語, emoji 🎉, "quotes" and \\ backslash. Use when asked.' });
  // The same name twice in one root (skill-duplicate), and a name taken by a root before (shadowed).
  writeSkill(path.join(lib(), 'dup-one'), { name: 'dup' });
  writeSkill(path.join(lib(), 'dup-two'), { name: 'dup' });
  writeSkill(path.join(lib(), 'nested-map'), {
    extra: 'metadata:\n  author: someone\n  "2": two\n  "1": one\nallowed-tools: [Read, Grep]',
  });
  writeSkill(path.join(lib(), 'Broken Name'), { name: 'Broken Name', description: '' });
  fs.mkdirSync(path.join(lib(), 'plain', 'deeper'), { recursive: true });
  writeSkill(path.join(lib(), 'group', 'inside'));
  const elsewhere = writeSkill(path.join(sb.base, 'elsewhere', 'linked'));
  fs.symlinkSync(elsewhere, path.join(lib(), 'linked'));
  fs.symlinkSync(path.join(sb.base, 'nowhere'), path.join(lib(), 'dangling'));
  writeSkill(path.join(claude(), 'alpha'), { description: 'The user copy of alpha. Use when asked.' });
  writeSkill(path.join(claude(), 'gamma'));
  writeSkill(path.join(claude(), 'beta-again'), { name: 'beta' });
}

type Pieces = Awaited<ReturnType<CatalogService['listJson']>>;

function joined(pieces: Pieces): string {
  const bytes: Buffer[] = [];
  for (const p of pieces) {
    if (typeof p === 'string' || p instanceof Uint8Array) bytes.push(Buffer.from(p));
    else p.chunks((b) => bytes.push(Buffer.from(b)));
  }
  return Buffer.concat(bytes).toString('utf8');
}

/** listJson's text, checked to be `JSON.stringify(list())` (asked first: list caches its answer). */
async function checked(svc: CatalogService, query = {}): Promise<{ text: string; pieces: Pieces }> {
  const pieces = await svc.listJson(query);
  const text = joined(pieces);
  expect(text).toBe(JSON.stringify(await svc.list(query)));
  return { text, pieces };
}

const bytePieces = (pieces: Pieces) => pieces.filter((p) => typeof p !== 'string').length;

describe('list as JSON text', () => {
  it('is JSON.stringify of the catalog, scanned or from the index, before and after a change', async () => {
    makeCatalog();
    await sleep(60);
    const first = await checked(catalogFor(sb, { index: true }));
    const parsed = JSON.parse(first.text) as {
      entries: Array<{ name: string; shadowedBy?: string; diagnostics: Array<{ code: string }> }>;
    };
    // The catalog has what the test is about: shadowed and duplicate entries, a link, a broken skill.
    expect(
      parsed.entries
        .filter((e) => e.shadowedBy)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['alpha', 'beta', 'dup']);
    expect(parsed.entries.some((e) => e.diagnostics.some((d) => d.code === 'skill-duplicate'))).toBe(true);
    expect(first.text).toContain('"linked":true');
    expect(first.text).toContain('日本語');
    await sleep(60);

    // A cold service over the index: nothing read, the same text, most of it copied from the file.
    const spy = countingAnalyze();
    const cold = catalogFor(sb, { analyze: spy.analyze, index: true });
    const again = await checked(cold);
    expect(spy.calls).toEqual([]);
    expect(again.text).toBe(first.text);
    expect(bytePieces(again.pieces)).toBeGreaterThan(0);
    expect(JSON.parse(again.text)).toEqual(JSON.parse(JSON.stringify(await catalogFor(sb, { index: false }).list())));

    // Changed on disk: a refresh re-reads it, and the text follows.
    writeSkill(path.join(lib(), 'gamma-two'), { name: 'gamma' });
    writeSkill(path.join(lib(), 'beta'), { description: 'Beta changed. Use when asked.' });
    await cold.refresh();
    const after = await checked(cold);
    expect(after.text).toContain('Beta changed');
    expect(after.text).not.toBe(first.text);
  });

  it('an unchanged root from the index is one slice of the file', async () => {
    for (let i = 0; i < 40; i++) writeSkill(path.join(lib(), `s-${String(i).padStart(2, '0')}`));
    await sleep(60);
    await checked(catalogFor(sb, { index: true }));
    await sleep(60);
    const { pieces } = await checked(catalogFor(sb, { index: true }));
    expect(bytePieces(pieces)).toBe(1);
  });

  it('lets go of an index file it read once a save replaces it', async () => {
    const indexFds = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(path.join('/proc/self/fd', fd)).includes(`${path.sep}cache${path.sep}catalog${path.sep}`);
        } catch {
          return false;
        }
      });
    const linux = fs.existsSync('/proc/self/fd');
    const skills = (description?: (i: number) => string) => {
      for (let i = 0; i < 40; i++)
        writeSkill(path.join(lib(), `s-${String(i).padStart(2, '0')}`), description ? { description: description(i) } : {});
    };
    skills();
    await sleep(60);
    await checked(catalogFor(sb, { index: true }));
    await sleep(60);
    // The text stays in the file while only JSON is asked for (Linux shows the open descriptor).
    await catalogFor(sb, { index: true }).listJson();
    if (linux) expect(indexFds().length).toBeGreaterThan(0);
    // Every skill changed: the cold scan reads them all and rewrites the index over the file it opened.
    skills((i) => `Changed ${i}. Use when asked.`);
    await sleep(60);
    const before = indexFds().length;
    const cold = catalogFor(sb, { index: true });
    const after = await checked(cold);
    expect(after.text).toContain('Changed 39.');
    if (linux) expect(indexFds().length).toBeLessThanOrEqual(before);
    const entries = (text: string) => (JSON.parse(text) as { entries: unknown[] }).entries;
    expect(entries(after.text)).toEqual(entries(JSON.stringify(await catalogFor(sb, { index: false }).list())));
  });

  it('a folder seen through another root id is written with that id', async () => {
    makeCatalog();
    const project = path.join(sb.base, 'proj');
    const shared = path.join(project, '.claude', 'skills');
    writeSkill(path.join(shared, 'delta'));
    await sleep(60);
    const svc = catalogFor(sb, { index: true });
    // First as an extra root, then as the project's own root: the same folder, the same state.
    const extra = await checked(svc, { roots: [shared] });
    expect(extra.text).toContain(`"extra:${shared}/delta"`);
    const proj = await checked(svc, { project });
    expect(proj.text).toContain('"project:.claude/skills/delta"');
    await sleep(60);
    const cold = catalogFor(sb, { index: true });
    await checked(cold, { roots: [shared] });
    await checked(cold, { project });
  });
});
