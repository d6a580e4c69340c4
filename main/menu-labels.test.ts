import { describe, expect, it } from 'vitest';
import { MENU_LABELS, MENU_LANGUAGES, menuLanguage } from './menu-labels.js';

describe('desktop menu labels', () => {
  it('has every label in all four languages, none empty, and translated', () => {
    const keys = Object.keys(MENU_LABELS.en).sort();
    for (const lang of MENU_LANGUAGES) {
      expect(Object.keys(MENU_LABELS[lang]).sort(), lang).toEqual(keys);
      for (const k of keys) expect(MENU_LABELS[lang][k as keyof typeof MENU_LABELS.en].trim(), `${lang}.${k}`).not.toBe('');
    }
    expect(MENU_LABELS['zh-CN'].edit).not.toBe(MENU_LABELS.en.edit);
    expect(MENU_LABELS['zh-TW'].file).not.toBe(MENU_LABELS['zh-CN'].file);
    expect(MENU_LABELS.ja.help).toBe('ヘルプ');
  });

  it('follows the language setting, else the OS locale, else English', () => {
    expect(menuLanguage('ja', 'en-US')).toBe('ja');
    expect(menuLanguage(null, 'zh-CN')).toBe('zh-CN');
    expect(menuLanguage(null, 'zh-TW')).toBe('zh-TW');
    expect(menuLanguage(null, 'zh-Hant-HK')).toBe('zh-TW');
    expect(menuLanguage(null, 'ja-JP')).toBe('ja');
    expect(menuLanguage(null, 'de-DE')).toBe('en');
  });
});
