import type { i18n as I18n } from 'i18next';
import { errorMessage } from '../i18n/engine-text';

let words: I18n | null = null;

/** The window's i18next: errors are worded in its language from then on (App sets it). */
export function setErrorLanguage(i18n: I18n | null): void {
  words = i18n;
}

/** A message for the user from whatever the client threw (`{code,message,msg}` or an Error), in the UI's language. */
export function errorText(err: unknown): string {
  if (words) return errorMessage(words.t, err);
  if (err && typeof err === 'object' && 'message' in err && typeof (err as { message: unknown }).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}

export function errorCode(err: unknown): string | undefined {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    return (err as { code: string }).code;
  }
  return undefined;
}
