import type { MenuItemConstructorOptions } from 'electron';
import type { Language } from '../src/contract/index.js';
import { matchLanguage } from '../src/contract/index.js';
// The menu's words are the renderer's: the `menu` section of its locale files (one translation
// table for the whole app). esbuild bundles only that section into the main process.
import { menu as en } from '../renderer/src/i18n/locales/en.json';
import { menu as zhCN } from '../renderer/src/i18n/locales/zh-CN.json';
import { menu as zhTW } from '../renderer/src/i18n/locales/zh-TW.json';
import { menu as ja } from '../renderer/src/i18n/locales/ja.json';

// The desktop menu as data, free of Electron at run time so it is unit-tested (menu.ts hands it to
// Menu.buildFromTemplate).

export type MenuWords = typeof en;

export const MENU_WORDS: Record<Language, MenuWords> = { en, 'zh-CN': zhCN, 'zh-TW': zhTW, ja };

/** The menu language: the user's setting, else the OS locale, else English. */
export function menuLanguage(setting: Language | null | undefined, osLocale: string): Language {
  if (setting && Object.hasOwn(MENU_WORDS, setting)) return setting;
  return matchLanguage([osLocale]);
}

export interface MenuOptions {
  /** macOS puts the app menu first (about, hide, quit); elsewhere File holds quit. */
  mac: boolean;
  /** A packaged app has no developer tools item. */
  packaged: boolean;
  /** Help > the Agent Skills specification, opened in the OS browser. */
  openSpec: () => void;
}

export function menuTemplate(t: MenuWords, { mac, packaged, openSpec }: MenuOptions): MenuItemConstructorOptions[] {
  const first: MenuItemConstructorOptions = mac
    ? {
        label: t.app,
        submenu: [
          { role: 'about', label: t.about },
          { type: 'separator' },
          { role: 'hide', label: t.hide },
          { role: 'hideOthers', label: t.hideOthers },
          { role: 'unhide', label: t.unhide },
          { type: 'separator' },
          { role: 'quit', label: t.quit },
        ],
      }
    : { label: t.file, submenu: [{ role: 'quit', label: t.quit }] };
  const devTools: MenuItemConstructorOptions[] = packaged ? [] : [{ role: 'toggleDevTools', label: t.toggleDevTools }];
  return [
    first,
    {
      label: t.edit,
      submenu: [
        { role: 'undo', label: t.undo },
        { role: 'redo', label: t.redo },
        { type: 'separator' },
        { role: 'cut', label: t.cut },
        { role: 'copy', label: t.copy },
        { role: 'paste', label: t.paste },
        { role: 'selectAll', label: t.selectAll },
      ],
    },
    {
      label: t.view,
      submenu: [
        { role: 'reload', label: t.reload },
        ...devTools,
        { type: 'separator' },
        { role: 'resetZoom', label: t.resetZoom },
        { role: 'zoomIn', label: t.zoomIn },
        { role: 'zoomOut', label: t.zoomOut },
        { type: 'separator' },
        { role: 'togglefullscreen', label: t.fullscreen },
      ],
    },
    {
      label: t.window,
      submenu: [
        { role: 'minimize', label: t.minimize },
        { role: 'close', label: t.close },
      ],
    },
    { label: t.help, submenu: [{ label: t.website, click: () => openSpec() }] },
  ];
}
