import 'i18next';
import type en from './locales/en.json';

// Typed keys: `t('skills.titel')` is a type error. en.json is the source of truth.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
