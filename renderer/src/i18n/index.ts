import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Language } from '../../../src/contract/index';
import { loadArcoLocale } from './arco-locale';

export const LANGUAGES: readonly Language[] = ['en', 'zh-CN', 'zh-TW', 'ja'];

/** Each language names itself, so the picker reads right whatever the current language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  ja: '日本語',
};

type Bundle = Record<string, unknown>;

// Issue 16 (a light first paint): each language's words are a chunk of their own, fetched before
// that language is shown, so the first script carries none of them. The engine's messages in
// English come from the engine's own table (src/contract/messages-text.ts), which is only needed
// for English and travels with it.
const BUNDLES: Record<Language, () => Promise<Bundle>> = {
  en: async () => {
    const [en, english] = await Promise.all([import('./locales/en.json'), import('./engine-english')]);
    return { ...en.default, engine: english.engineEnglishTree() };
  },
  'zh-CN': async () => (await import('./locales/zh-CN.json')).default,
  'zh-TW': async () => (await import('./locales/zh-TW.json')).default,
  ja: async () => (await import('./locales/ja.json')).default,
};

/** The `translation` namespace of one language, as i18next is given it. */
export function loadBundle(language: Language): Promise<Bundle> {
  return BUNDLES[language]();
}

/** Maps an OS/browser language tag (navigator.languages) onto one we ship (shared with the desktop menu). */
export { matchLanguage } from '../../../src/contract/language';

/** A fresh i18next instance speaking `language`, its words already in (tests make their own; the app makes one at start). */
export async function createI18n(language: Language = 'en'): Promise<I18n> {
  const [bundle] = await Promise.all([loadBundle(language), loadArcoLocale(language)]);
  const instance = i18next.createInstance();
  await instance.use(initReactI18next).init({
    resources: { [language]: { translation: bundle } },
    lng: language,
    fallbackLng: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

const wanted = new WeakMap<I18n, Language>();

/**
 * Switches `i18n` to `language` once that language's words (and Arco's) are loaded, so nothing is
 * ever shown as a key or in a language half-switched; until then the current language stays. When
 * switches overlap, the last one asked for wins.
 */
export async function switchLanguage(i18n: I18n, language: Language): Promise<void> {
  wanted.set(i18n, language);
  if (!i18n.hasResourceBundle(language, 'translation')) {
    const [bundle] = await Promise.all([loadBundle(language), loadArcoLocale(language)]);
    if (!i18n.hasResourceBundle(language, 'translation')) i18n.addResourceBundle(language, 'translation', bundle);
  }
  if (wanted.get(i18n) === language && i18n.language !== language) await i18n.changeLanguage(language);
}
