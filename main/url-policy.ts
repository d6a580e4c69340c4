import { APP_ORIGIN } from './app-origin.js';

/** Only web links leave the app, and only to the OS browser (never file:, smb:, custom schemes). */
export function isExternalWebUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The window may only ever show the app's own pages. */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}
