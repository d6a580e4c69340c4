// The desktop menu without Electron: its words come from the renderer's locale files (no second
// translation table), every label is there in every language, and the language follows the
// setting, then the OS locale.
import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { LANGUAGES, createI18n } from '../renderer/src/i18n/index.js';
import { MENU_WORDS, menuLanguage, menuTemplate } from './menu-template.js';

function labels(items: MenuItemConstructorOptions[]): Array<string | undefined> {
  return items.flatMap((i) => (i.type === 'separator' ? [] : [i.label, ...(Array.isArray(i.submenu) ? labels(i.submenu) : [])]));
}

const variants = [
  { mac: true, packaged: false },
  { mac: false, packaged: false },
  { mac: true, packaged: true },
  { mac: false, packaged: true },
];

describe('desktop menu', () => {
  it('reads every label from the locale files, in every language, none empty or untranslated', async () => {
    const enLabels = new Set(labels(menuTemplate(MENU_WORDS.en, { mac: true, packaged: false, openSpec() {} })));
    for (const lang of LANGUAGES) {
      const i18n = await createI18n(lang);
      for (const opts of variants) {
        const shown = labels(menuTemplate(MENU_WORDS[lang], { ...opts, openSpec() {} }));
        expect(shown.length, `${lang} ${JSON.stringify(opts)}`).toBeGreaterThan(15);
        for (const label of shown) {
          expect(typeof label, `${lang}: a label is missing`).toBe('string');
          expect(label!.trim(), lang).not.toBe('');
          expect(label, lang).not.toMatch(/\{\{|\}\}|^menu\./);
        }
      }
      // The words are the renderer's own: the same i18next keys give the same text.
      for (const [key, text] of Object.entries(MENU_WORDS[lang])) expect(i18n.t(`menu.${key}` as never), `${lang} menu.${key}`).toBe(text);
      if (lang !== 'en') {
        const mine = labels(menuTemplate(MENU_WORDS[lang], { mac: true, packaged: false, openSpec() {} }));
        // Only the product name may read the same as in English.
        expect(
          mine.filter((l) => enLabels.has(l)),
          lang,
        ).toEqual(['SkillDock']);
      }
    }
  });

  it('has the app menu on macOS, File elsewhere, and developer tools only when not packaged', () => {
    const t = MENU_WORDS['zh-CN'];
    const roles = (items: MenuItemConstructorOptions[]) =>
      items.flatMap((i) => (Array.isArray(i.submenu) ? i.submenu.map((s) => s.role) : []));
    const mac = menuTemplate(t, { mac: true, packaged: false, openSpec() {} });
    expect(mac[0].label).toBe('SkillDock');
    expect(roles(mac)).toContain('about');
    const linux = menuTemplate(t, { mac: false, packaged: true, openSpec() {} });
    expect(linux[0].label).toBe(t.file);
    expect(roles(linux)).not.toContain('about');
    expect(roles(linux)).not.toContain('toggleDevTools');
    expect(roles(mac)).toContain('toggleDevTools');
  });

  it('Help opens the specification through the given opener', () => {
    let opened = 0;
    const help = menuTemplate(MENU_WORDS.ja, { mac: false, packaged: true, openSpec: () => opened++ }).at(-1)!;
    expect(help.label).toBe('ヘルプ');
    const item = (help.submenu as MenuItemConstructorOptions[])[0];
    expect(item.label).toBe(MENU_WORDS.ja.website);
    (item.click as () => void)();
    expect(opened).toBe(1);
  });

  it('follows the language setting, else the OS locale, else English', () => {
    expect(menuLanguage('ja', 'en-US')).toBe('ja');
    expect(menuLanguage('zh-TW', 'ja-JP')).toBe('zh-TW');
    expect(menuLanguage(null, 'zh-CN')).toBe('zh-CN');
    expect(menuLanguage(undefined, 'zh-TW')).toBe('zh-TW');
    expect(menuLanguage(null, 'zh-Hant-HK')).toBe('zh-TW');
    expect(menuLanguage(null, 'zh_HK')).toBe('zh-TW');
    expect(menuLanguage(null, 'ja-JP')).toBe('ja');
    expect(menuLanguage(null, 'de-DE')).toBe('en');
    expect(menuLanguage(null, '')).toBe('en');
    // A hand-edited settings.json with a language we do not ship falls back to the OS locale.
    expect(menuLanguage('fr' as never, 'ja')).toBe('ja');
    expect(menuLanguage('__proto__' as never, 'ja')).toBe('ja');
  });
});
