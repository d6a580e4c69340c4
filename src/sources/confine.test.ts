import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SkillDockError } from '../errors.js';
import { isPlainRepoPath, skillDirIn } from './confine.js';

// skillDirIn on its own: each of its two checks (a plain path; a real location inside) refuses
// what the other lets through.

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-confine-')));
const checkout = path.join(tmp, 'repo');
fs.mkdirSync(path.join(checkout, 'skills', 'a'), { recursive: true });
fs.mkdirSync(path.join(tmp, 'outside'));
fs.symlinkSync(path.join(tmp, 'outside'), path.join(checkout, 'skills', 'out'));
fs.symlinkSync('a', path.join(checkout, 'skills', 'alias'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function refused(rel: string): void {
  let err: unknown;
  try {
    skillDirIn(checkout, rel, 'src');
  } catch (e) {
    err = e;
  }
  expect(err, rel).toBeInstanceOf(SkillDockError);
  expect((err as SkillDockError).msg).toEqual({ key: 'sources.path-outside', params: { path: rel, source: 'src' } });
}

describe('skillDirIn', () => {
  it('a plain path inside, also through a link that stays inside, and a missing one', () => {
    expect(skillDirIn(checkout, 'skills/a', 'src')).toBe(path.join(checkout, 'skills', 'a'));
    expect(skillDirIn(checkout, 'skills/alias', 'src')).toBe(path.join(checkout, 'skills', 'alias'));
    expect(skillDirIn(checkout, '', 'src')).toBe(checkout);
    expect(skillDirIn(checkout, 'skills/gone', 'src')).toBe(path.join(checkout, 'skills', 'gone'));
  });

  it('refuses a path that is not plain, even when it would land inside', () => {
    for (const rel of ['skills/../skills/a', './skills/a', 'skills//a', '/etc', 'C:/x', 'skills\\a', 'skills/a\n', '..']) {
      expect(isPlainRepoPath(rel), rel).toBe(false);
      refused(rel);
    }
  });

  it('refuses a plain path whose real location is outside (a link out)', () => {
    expect(isPlainRepoPath('skills/out')).toBe(true);
    refused('skills/out');
  });
});
