import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeWorld, writeSkill, type World } from '../../test/support/library.js';

// A folder that holds SkillDock's home (a home folder with a SKILL.md and .skilldock) must not be
// copied into itself; a folder inside SkillDock's home is SkillDock's own.

let w: World;
beforeEach(() => {
  w = makeWorld();
});
afterEach(async () => {
  await w.done();
});

const entries = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

describe('import and SkillDock home', () => {
  it('refuses a folder that holds SkillDock home, copying nothing', async () => {
    writeSkill(w.root, 'top'); // the folder holding SkillDock's home is itself a skill
    await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'one'), 'one')] });
    const before = entries(path.join(w.home, 'library'));
    const out = await w.service.api.importPaths({ paths: [w.root] });
    expect(out.results).toHaveLength(1);
    expect(out.results[0]!).toMatchObject({ status: 'refused' });
    expect(out.results[0]!.message).toMatch(/copy SkillDock into itself/);
    expect(entries(path.join(w.home, 'library'))).toEqual(before);
  });

  it('refuses a folder inside SkillDock home (the library itself)', async () => {
    await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'one'), 'one')] });
    const out = await w.service.api.importPaths({ paths: [path.join(w.home, 'library')] });
    expect(out.results.map((r) => r.status)).toEqual(['refused']);
    expect(out.results[0]!.message).toMatch(/already managed by SkillDock/);
  });

  it.each(['staging', 'uploads'])('still imports what a drop staged under SkillDock home/%s', async (corner) => {
    const staged = path.join(w.home, corner, 'b-0000000000000-0123456789abcdef');
    writeSkill(path.join(staged, 'dropped'), 'dropped');
    const out = await w.service.api.importPaths({ paths: [path.join(staged, 'dropped')] });
    expect(out.results.map((r) => r.status)).toEqual(['imported']);
  });
});
