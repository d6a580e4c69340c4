import { describe, expect, it } from 'vitest';
import { formatBytes, rootLabel } from './provenance-format';
import { createI18n } from '../../i18n';

describe('drawer wording', () => {
  it('sizes read naturally: one file, bytes under a kilobyte', async () => {
    const en = await createI18n('en');
    expect(en.t('skills.drawer.sizeValue', { count: 1, size: formatBytes(300, 'en') })).toBe('1 file, 300 byte');
    expect(en.t('skills.drawer.sizeValue', { count: 3, size: formatBytes(1536, 'en') })).toBe('3 files, 1.5 kB');
    const ja = await createI18n('ja');
    expect(ja.t('skills.drawer.sizeValue', { count: 2, size: formatBytes(2048, 'ja') })).toMatch(/^2 ファイル、2/);
  });
  it('a root whose id is its kind is named once', () => {
    expect(rootLabel('library', 'library', 'library')).toBe('library');
    expect(rootLabel('user', 'user:claude', 'user')).toBe('user · user:claude');
  });
});
