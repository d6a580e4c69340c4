import { describe, expect, it } from 'vitest';
import { formatBytes, rootLabel } from './provenance-format';
import { createI18n } from '../../i18n';

// What formatBytes promises (its comment): "512 B", "1.5 KB", "3.2 MB" in English, steps of 1024,
// the unit worded in the user's language through the locale files.

describe('drawer wording', () => {
  it('sizes read as the comment promises, in English', async () => {
    const en = await createI18n('en');
    expect(formatBytes(512, en)).toBe('512 B');
    expect(formatBytes(1536, en)).toBe('1.5 KB');
    expect(formatBytes(Math.round(3.2 * 1024 * 1024), en)).toBe('3.2 MB');
    expect(formatBytes(1023, en)).toBe('1,023 B');
    expect(formatBytes(1024, en)).toBe('1 KB');
    expect(formatBytes(5 * 1024 ** 4, en)).toBe('5,120 GB'); // the largest unit keeps counting
    expect(en.t('skills.drawer.sizeValue', { count: 1, size: formatBytes(300, en) })).toBe('1 file, 300 B');
    expect(en.t('skills.drawer.sizeValue', { count: 3, size: formatBytes(1536, en) })).toBe('3 files, 1.5 KB');
  });

  it('in the other languages, the unit is their word', async () => {
    const ja = await createI18n('ja');
    expect(formatBytes(512, ja)).toBe('512 バイト');
    expect(ja.t('skills.drawer.sizeValue', { count: 2, size: formatBytes(2048, ja) })).toBe('2 ファイル、2 KB');
    expect(formatBytes(512, await createI18n('zh-CN'))).toBe('512 字节');
    expect(formatBytes(1536, await createI18n('zh-TW'))).toBe('1.5 KB');
  });

  it('a root whose id is its kind is named once', () => {
    expect(rootLabel('library', 'library', 'library')).toBe('library');
    expect(rootLabel('user', 'user:claude', 'user')).toBe('user · user:claude');
  });
});
