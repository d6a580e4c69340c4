import { describe, expect, it } from 'vitest';
import { relativeToSkill } from './skill-relative';

describe('relativeToSkill', () => {
  const dir = '/home/me/.skilldock/library/tool';
  it('writes files inside the skill folder relative to it, by either of its names', () => {
    const items = [{ file: `${dir}/scripts/setup.sh`, line: 3 }, { file: `${dir}/SKILL.md` }, { file: '/real/tool/references/a.md' }];
    expect(relativeToSkill(items, [dir, '/real/tool/']).map((i) => i.file)).toEqual(['scripts/setup.sh', 'SKILL.md', 'references/a.md']);
    expect(relativeToSkill(items, [dir])[0]).toEqual({ file: 'scripts/setup.sh', line: 3 });
  });

  it('keeps the full path of a file outside the folder, of a sibling with the same prefix, and of the folder itself', () => {
    const items = [{ file: '/etc/passwd' }, { file: `${dir}-old/SKILL.md` }, { file: dir }, { file: `${dir}/` }];
    expect(relativeToSkill(items, [dir, null, undefined]).map((i) => i.file)).toEqual([
      '/etc/passwd',
      `${dir}-old/SKILL.md`,
      dir,
      `${dir}/`,
    ]);
  });

  it('Windows paths: backslashes inside the skill become /', () => {
    expect(relativeToSkill([{ file: 'C:\\Users\\me\\skills\\tool\\scripts\\run.ps1' }], ['C:\\Users\\me\\skills\\tool'])[0]!.file).toBe(
      'scripts/run.ps1',
    );
  });
});
