import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, writeSkill, type World } from '../../test/support/library.js';
import { makeZip, SKILL_MD } from '../../test/support/zips.js';
import { removeTreeSafely } from './tree.js';
import { readJournal } from './journal.js';

// A skill nested thousands of folders deep in an archive must not lock every later import out.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const deep = (levels: number) => Array.from({ length: levels }, (_, i) => `d${i % 10}`).join('/');

describe('a very deep archive', () => {
  it('2,100 levels: the import ends with a clear result, staging is left clean, and the next import succeeds', async () => {
    const zip = await makeZip(path.join(w.src, 'deep.zip'), { [`${deep(2100)}/SKILL.md`]: SKILL_MD('deep') });
    const out = await w.service.api.importPaths({ paths: [zip] });
    expect(out.results).toHaveLength(1);
    expect(out.results[0]!.status).toBe('refused');
    expect(out.results[0]!.message).toMatch(/deep/);
    const staging = path.join(w.home, 'staging');
    expect(fs.existsSync(staging) ? fs.readdirSync(staging).filter((n) => n !== 'uploads') : []).toEqual([]);
    const next = await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'normal'), 'normal')] });
    expect(next.results.map((r) => r.status)).toEqual(['imported']);
  }, 120_000);

  it('one-letter folders 2,100 deep (a path short enough for the disk) are refused the same way', async () => {
    const name = `${Array.from({ length: 2100 }, () => 'a').join('/')}/SKILL.md`;
    const out = await w.service.api.importPaths({ paths: [await makeZip(path.join(w.src, 'a.zip'), { [name]: SKILL_MD('a') })] });
    expect(out.results.map((r) => r.status)).toEqual(['refused']);
    const next = await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'after'), 'after')] });
    expect(next.results.map((r) => r.status)).toEqual(['imported']);
  }, 120_000);

  it('a skill a few folders down still imports', async () => {
    const zip = await makeZip(path.join(w.src, 'ok.zip'), { [`${deep(3)}/SKILL.md`]: SKILL_MD('nested-ok') });
    const out = await w.service.api.importPaths({ paths: [zip] });
    expect(out.results.map((r) => r.status)).toEqual(['imported']);
  });
});

describe('a very deep folder', () => {
  it('a skill folder holding 1,500 nested folders is refused with the reason; nothing stays; the next import succeeds', async () => {
    const skill = writeSkill(path.join(w.src, 'deep-skill'), 'deep-skill');
    let cur = skill;
    // As deep as the disk allows a path to go here (4,096 bytes), far past the limit of 64.
    for (let i = 0; i < 1500; i++) {
      cur = path.join(cur, 'a');
      fs.mkdirSync(cur);
    }
    const out = await w.service.api.importPaths({ paths: [skill] });
    expect(out.results.map((r) => [r.status, r.msg?.key])).toEqual([['refused', 'import.too-deep']]);
    expect(fs.existsSync(path.join(w.home, 'library', 'deep-skill'))).toBe(false);
    // Nothing was imported into the empty library: no journal entry, nothing to offer undo for.
    expect(out.journalId).toBeUndefined();
    expect(readJournal(w.service.ctx)).toEqual([]);
    const staging = path.join(w.home, 'staging', 'import');
    expect(fs.existsSync(staging) ? fs.readdirSync(staging) : []).toEqual([]);
    const next = await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'normal'), 'normal')] });
    expect(next.results.map((r) => r.status)).toEqual(['imported']);
    // and undo reverts that import, not something left of the deep one
    expect((await w.service.api.undo({})).undone.op).toBe('import');
    expect(fs.existsSync(path.join(w.home, 'library', 'normal'))).toBe(false);
    removeTreeSafely(skill); // fs.rmSync would overflow its stack on it
  }, 120_000);
});
