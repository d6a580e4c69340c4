import type { Locale } from '@arco-design/web-react/es/locale/interface';
import type { Language } from '../../../src/contract/index';

// Arco's own words (date pickers, empty states, pagination) in each language, fetched with the
// language's locale (issue 16: only the active language is in the first script's way).
// Arco ships no zh-TW; zh-HK is the Traditional Chinese one.
const LOADERS: Record<Language, () => Promise<{ default: Locale }>> = {
  en: () => import('@arco-design/web-react/es/locale/en-US'),
  'zh-CN': () => import('@arco-design/web-react/es/locale/zh-CN'),
  'zh-TW': () => import('@arco-design/web-react/es/locale/zh-HK'),
  ja: () => import('@arco-design/web-react/es/locale/ja-JP'),
};

const loaded: Partial<Record<Language, Locale>> = {};

export async function loadArcoLocale(language: Language): Promise<void> {
  loaded[language] ??= (await LOADERS[language]()).default;
}

/** Arco's locale for a language already loaded (i18next switches only once it is). */
export function arcoLocale(language: Language): Locale | undefined {
  return loaded[language];
}
