// Debian's Chromium and the flags every headless run here uses (Playwright downloads no browser).
// Shared by playwright.config.ts and bench/ui.mjs.
export const CHROMIUM_PATH = process.env.SKILLDOCK_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
