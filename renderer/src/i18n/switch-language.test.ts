import { describe, expect, it } from 'vitest';
import { createI18n, switchLanguage } from './index';
import { arcoLocale } from './arco-locale';

// Issue 16: only the active language is loaded at start; another one is fetched when asked for,
// and the window switches only once its words are in (never a key, never half a language).
describe('languages loaded on demand', () => {
  it('starts with one language and switches once the other one is loaded', async () => {
    const i18n = await createI18n('en');
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('ja', 'translation')).toBe(false);
    expect(arcoLocale('en')).toBeDefined();

    const switching = switchLanguage(i18n, 'ja');
    // Still loading: the window keeps speaking English, with words, not keys.
    expect(i18n.language).toBe('en');
    expect(i18n.t('nav.skills')).toBe('Skills');
    await switching;
    expect(i18n.language).toBe('ja');
    expect(i18n.t('nav.skills')).not.toBe('Skills');
    expect(i18n.t('nav.skills')).not.toBe('nav.skills');
    expect(arcoLocale('ja')).toBeDefined();
  });

  it('when switches overlap, the last one asked for wins', async () => {
    const i18n = await createI18n('en');
    const zh = await createI18n('zh-CN');
    await Promise.all([switchLanguage(i18n, 'ja'), switchLanguage(i18n, 'zh-CN')]);
    expect(i18n.language).toBe('zh-CN');
    expect(i18n.t('nav.skills')).toBe(zh.t('nav.skills'));
    // and back to a language already loaded
    await switchLanguage(i18n, 'en');
    expect(i18n.t('nav.skills')).toBe('Skills');
  });
});
