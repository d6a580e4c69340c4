import { BrowserWindow, shell, type WebContents } from 'electron';
import { APP_ORIGIN } from './app-origin.js';
import { judgeNavigation, judgeRedirect, judgeWindowOpen } from './url-policy.js';

/** No navigation away from the app and no new windows; web links go to the OS browser (url-policy.ts). */
export function lockDown(contents: WebContents): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (judgeWindowOpen(url) === 'open-external') void shell.openExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event, url) => {
    const verdict = judgeNavigation(url);
    if (verdict === 'stay') return;
    event.preventDefault();
    if (verdict === 'open-external') void shell.openExternal(url);
  });
  contents.on('will-redirect', (event, url) => {
    if (judgeRedirect(url) === 'refuse') event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  // The page never needs camera, notifications, geolocation...
  contents.session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
}

export function createMainWindow(preload: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'SkillDock',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  lockDown(win.webContents);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}
