import { describe, expect, it } from 'vitest';
import { sourceLabel } from './source-label';

describe('sourceLabel', () => {
  it('shows what was dropped, not the staging batch folder', () => {
    expect(sourceLabel('/home/u/.skilldock/uploads/b-1764700000000-0123456789abcdef/broken.zip')).toBe('broken.zip');
    expect(sourceLabel('/home/u/.skilldock/uploads/b-1764700000000-0123456789abcdef/my-skills/pdf')).toBe('my-skills/pdf');
    expect(sourceLabel('C:\\Users\\u\\.skilldock\\uploads\\b-1764700000000-0123456789abcdef\\x.skill')).toBe('x.skill');
  });
  it('names a skill inside an archive by the archive and its path inside', () => {
    expect(sourceLabel('/home/u/.skilldock/uploads/b-1764700000000-0123456789abcdef/pack.zip!/tools/lint')).toBe('pack.zip › tools/lint');
  });
  it('keeps a path the user picked as it is', () => {
    expect(sourceLabel('/home/u/projects/skills/pdf')).toBe('/home/u/projects/skills/pdf');
    expect(sourceLabel('/data/uploads/b-notabatch/pdf')).toBe('/data/uploads/b-notabatch/pdf');
  });
});
