import type { Language } from './settings.js';

// Which shipped language an OS or browser language tag means. One copy for the renderer (the
// browser's languages) and the desktop menu (the OS locale), so both pick the same language.

/** Maps language tags (most preferred first) onto a shipped language; English when none matches. */
export function matchLanguage(tags: readonly string[]): Language {
  for (const raw of tags) {
    const tag = raw.toLowerCase();
    if (tag.startsWith('zh')) {
      // Traditional script or regions that use it (`zh-Hant`, `zh-TW`, `zh_HK`, `zh-Hant-MO`...).
      if (/hant|[-_](tw|hk|mo)\b/.test(tag)) return 'zh-TW';
      return 'zh-CN';
    }
    if (tag.startsWith('ja')) return 'ja';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}
