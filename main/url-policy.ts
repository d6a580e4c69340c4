import { APP_ORIGIN } from './app-origin.js';

// Where the window may go and what leaves the app, as plain functions of a URL string (no
// Electron), so every hostile URL is tested here; window.ts only applies the verdicts.

/** Longest URL handed to the OS browser; a longer one is not a link anyone meant to click. */
export const MAX_EXTERNAL_URL = 4096;

/**
 * Only web links leave the app, and only to the OS browser (never file:, smb:, custom schemes).
 * A link with a user name or password is refused: `https://agentskills.io@evil.example/` reads as
 * one site and opens another.
 */
export function isExternalWebUrl(url: string): boolean {
  if (url.length > MAX_EXTERNAL_URL) return false;
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.username === '' && u.password === '' && u.hostname !== '';
  } catch {
    return false;
  }
}

/** The window may only ever show the app's own pages. */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.username === '' && u.password === '' && `${u.protocol}//${u.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}

export type NavigationVerdict = 'stay' | 'open-external' | 'refuse';

/**
 * A navigation of the window itself (a link clicked in the page, `location = ...`): the app's own
 * pages load in place; a web link is stopped and opened in the OS browser; anything else is stopped.
 */
export function judgeNavigation(url: string): NavigationVerdict {
  if (isAppUrl(url)) return 'stay';
  return isExternalWebUrl(url) ? 'open-external' : 'refuse';
}

/** `window.open` or a `target=_blank` link: never a new app window; a web link goes to the OS browser. */
export function judgeWindowOpen(url: string): Exclude<NavigationVerdict, 'stay'> {
  return isExternalWebUrl(url) ? 'open-external' : 'refuse';
}

/** A redirect of a page load: only to the app's own pages. */
export function judgeRedirect(url: string): Extract<NavigationVerdict, 'stay' | 'refuse'> {
  return isAppUrl(url) ? 'stay' : 'refuse';
}
