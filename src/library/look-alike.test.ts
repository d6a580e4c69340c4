import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeWorld, writeSkill, type World } from '../../test/support/library.js';

// Names that read the same (case, composed or decomposed accents, a Cyrillic letter drawn like a
// Latin one) are asked about like a name clash, with the same choices.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const lib = () => fs.readdirSync(path.join(w.home, 'library')).sort();

it.each([
  ['pdf', '\u0440df'], // Cyrillic er
  ['caf\u00e9', 'cafe\u0301'], // composed and decomposed
  ['Tool', 'tool'], // case
])('%j then %j: a conflict naming the skill it looks like; skip, keep both or replace', async (first, second) => {
  await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'a', first), first, { 'v.txt': '1' })] });
  const src = writeSkill(path.join(w.src, 'b', second), second, { 'v.txt': '2' });
  const asked = await w.service.api.importPaths({ paths: [src] });
  expect(asked.results[0]).toMatchObject({
    status: 'conflict',
    libraryName: first,
    msg: { key: 'import.look-alike', params: { name: second, existing: first } },
  });
  expect(lib()).toEqual([first]);

  expect((await w.service.api.importPaths({ paths: [src], onConflict: 'skip' })).results[0]!.status).toBe('skipped');
  expect(lib()).toEqual([first]);

  const both = await w.service.api.importPaths({ paths: [src], resolutions: { [second]: 'keep-both' } });
  expect(both.results[0]).toMatchObject({ status: 'kept-both', libraryName: second });
  expect(lib()).toEqual([first, second].sort());
  await w.service.api.undo({});
  expect(lib()).toEqual([first]);

  const replaced = await w.service.api.importPaths({ paths: [src], onConflict: 'replace' });
  expect(replaced.results[0]).toMatchObject({ status: 'replaced', libraryName: second });
  expect(lib()).toEqual([second]);
  expect(fs.readFileSync(path.join(w.home, 'library', second, 'v.txt'), 'utf8')).toBe('2');
  // (the keep-both copy the undo above took away waits in the trash too, as 'undone')
  expect((await w.service.api.listTrash({})).items.filter((t) => t.reason === 'replaced').map((t) => t.name)).toEqual([first]);
  // undo puts the first one back from the trash
  await w.service.api.undo({});
  expect(lib()).toEqual([first]);
  expect(fs.readFileSync(path.join(w.home, 'library', first, 'v.txt'), 'utf8')).toBe('1');
});

it('two look-alikes in one batch: the second is asked about', async () => {
  const a = writeSkill(path.join(w.src, 'x', 'pdf'), 'pdf');
  const b = writeSkill(path.join(w.src, 'y', '\u0440df'), '\u0440df');
  const out = await w.service.api.importPaths({ paths: [a, b] });
  expect(out.results.map((r) => r.status)).toEqual(['imported', 'conflict']);
});
