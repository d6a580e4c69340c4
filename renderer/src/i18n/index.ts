import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '../../../src/contract/index';
import en from './locales/en.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';
import ja from './locales/ja.json';
import { engineEnglishTree } from './engine-text';

export const LANGUAGES: readonly Language[] = ['en', 'zh-CN', 'zh-TW', 'ja'];

/** Each language names itself, so the picker reads right whatever the current language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  ja: '日本語',
};

export const resources = {
  // The engine's messages in English come from the engine's own table (src/contract/messages.ts).
  en: { translation: { ...en, engine: engineEnglishTree() } },
  'zh-CN': { translation: zhCN },
  'zh-TW': { translation: zhTW },
  ja: { translation: ja },
} as const;

/** Maps an OS/browser language tag (navigator.languages) onto one we ship (shared with the desktop menu). */
export { matchLanguage } from '../../../src/contract/language';

/** A fresh i18next instance (tests make their own; the app makes one at start). */
export async function createI18n(language: Language = 'en'): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
