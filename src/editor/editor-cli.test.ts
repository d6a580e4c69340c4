import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, runWorldCli, type World } from '../../test/support/library.js';

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const cli = (...argv: string[]) => runWorldCli(w, ...argv);

describe('skilldock new', () => {
  it('creates from each template, reports shadowing, refuses bad names and usage, and undo removes it', async () => {
    let r = await cli('new', 'my-notes', '--description', 'Keeps notes when the user asks.');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/my-notes: created at .*library\/my-notes/);
    expect(fs.readFileSync(path.join(w.home, 'library', 'my-notes', 'SKILL.md'), 'utf8')).toContain(
      'description: "Keeps notes when the user asks."',
    );

    r = await cli('new', 'runner', '--template', 'scripts', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ name: 'runner', files: ['SKILL.md', 'scripts/run.sh'], clashes: [] });

    r = await cli('new', 'writing-skills', '--template', 'references');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/builtin skill builtin\/writing-skills has the same name and wins over this one/);

    r = await cli('new', 'Bad_Name');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/"Bad_Name" cannot be a skill name: .*upper-case/);
    expect(fs.existsSync(path.join(w.home, 'library', 'Bad_Name'))).toBe(false);

    r = await cli('new', 'my-notes');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/already in the library/);

    expect((await cli('new')).code).toBe(2);
    expect((await cli('new', 'x', '--template', 'fancy')).code).toBe(2);
    expect((await cli('new', '../up')).code).toBe(2);

    r = await cli('undo');
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(w.home, 'library', 'writing-skills'))).toBe(false);
  });
});
