import { beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '../../../src/contract/index';
import { LANGUAGES, createI18n, loadBundle, matchLanguage } from './index';

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const placeholders = (s: string) => [...new Set([...s.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]))].sort();

/** Plural forms differ per language (English one/other, CJK other only): compare base keys. */
function byBase(map: Map<string, string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of map) {
    const base = k.replace(PLURAL, '');
    out.set(base, [...(out.get(base) ?? []), v]);
  }
  return out;
}

describe('locales', () => {
  // Each language is its own chunk (loaded on demand in the app): the test loads all four.
  const bundles = {} as Record<Language, Tree>;
  let en: Map<string, string[]>;
  beforeAll(async () => {
    for (const lang of LANGUAGES) bundles[lang] = (await loadBundle(lang)) as Tree;
    en = byBase(flatten(bundles.en));
  });

  for (const lang of LANGUAGES) {
    it(`${lang} has every key of en with the same {{placeholders}}, and no others`, () => {
      const other = byBase(flatten(bundles[lang]));
      expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [key, texts] of en) {
        const want = [...new Set(texts.flatMap(placeholders))].sort();
        for (const text of other.get(key)!) {
          expect({ key, placeholders: placeholders(text).filter((p) => p !== 'count') }).toEqual({
            key,
            placeholders: want.filter((p) => p !== 'count'),
          });
          expect(text.trim(), `${lang} ${key} is empty`).not.toBe('');
        }
        // A count-driven key must use {{count}} in every form, or the number silently vanishes.
        if (want.includes('count')) for (const text of other.get(key)!) expect(placeholders(text), `${lang} ${key}`).toContain('count');
      }
    });
  }

  it('every plural key has its `other` form in every language', () => {
    for (const lang of LANGUAGES) {
      const keys = [...flatten(bundles[lang]).keys()].filter((k) => PLURAL.test(k));
      for (const k of keys) expect(keys, `${lang}: ${k}`).toContain(k.replace(PLURAL, '_other'));
    }
  });

  it('the real i18next interpolates and pluralises in each language', async () => {
    for (const lang of LANGUAGES) {
      const i18n = await createI18n(lang);
      const text = i18n.t('assistants.removeConfirm', { skill: 'pdf-tools', assistant: 'Reviewer' });
      expect(text).toContain('pdf-tools');
      expect(text).toContain('Reviewer');
      expect(text).not.toContain('{{');
      const one = i18n.t('skills.badge.errors', { count: 1 });
      const many = i18n.t('skills.badge.errors', { count: 3 });
      expect(one).toContain('1');
      expect(many).toContain('3');
      expect(many).not.toContain('skills.badge');
    }
    const en = await createI18n('en');
    expect(en.t('skills.badge.errors', { count: 1 })).toBe('1 error');
    expect(en.t('skills.badge.errors', { count: 2 })).toBe('2 errors');
  });

  it('maps OS language tags to a shipped language', () => {
    expect(matchLanguage(['zh-CN'])).toBe('zh-CN');
    expect(matchLanguage(['zh-Hans-SG'])).toBe('zh-CN');
    expect(matchLanguage(['zh-TW'])).toBe('zh-TW');
    expect(matchLanguage(['zh-Hant'])).toBe('zh-TW');
    expect(matchLanguage(['zh-HK'])).toBe('zh-TW');
    expect(matchLanguage(['ja-JP'])).toBe('ja');
    expect(matchLanguage(['fr-FR', 'ja'])).toBe('ja');
    expect(matchLanguage(['de-DE'])).toBe('en');
    expect(matchLanguage([])).toBe('en');
  });
});
