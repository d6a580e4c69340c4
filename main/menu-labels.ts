// The desktop menu in the four UI languages. Data, so a new language is one more column.
import type { Language } from '../src/contract/index.js';

export const MENU_LANGUAGES = ['en', 'zh-CN', 'zh-TW', 'ja'] as const satisfies readonly Language[];

export type MenuKey =
  | 'app'
  | 'file'
  | 'edit'
  | 'view'
  | 'window'
  | 'help'
  | 'quit'
  | 'about'
  | 'hide'
  | 'hideOthers'
  | 'unhide'
  | 'undo'
  | 'redo'
  | 'cut'
  | 'copy'
  | 'paste'
  | 'selectAll'
  | 'reload'
  | 'toggleDevTools'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'fullscreen'
  | 'minimize'
  | 'close'
  | 'website';

export const MENU_LABELS: Record<(typeof MENU_LANGUAGES)[number], Record<MenuKey, string>> = {
  en: {
    app: 'SkillDock',
    file: 'File',
    edit: 'Edit',
    view: 'View',
    window: 'Window',
    help: 'Help',
    quit: 'Quit SkillDock',
    about: 'About SkillDock',
    hide: 'Hide SkillDock',
    hideOthers: 'Hide Others',
    unhide: 'Show All',
    undo: 'Undo',
    redo: 'Redo',
    cut: 'Cut',
    copy: 'Copy',
    paste: 'Paste',
    selectAll: 'Select All',
    reload: 'Reload',
    toggleDevTools: 'Toggle Developer Tools',
    resetZoom: 'Actual Size',
    zoomIn: 'Zoom In',
    zoomOut: 'Zoom Out',
    fullscreen: 'Toggle Full Screen',
    minimize: 'Minimize',
    close: 'Close Window',
    website: 'Agent Skills Specification',
  },
  'zh-CN': {
    app: 'SkillDock',
    file: '文件',
    edit: '编辑',
    view: '视图',
    window: '窗口',
    help: '帮助',
    quit: '退出 SkillDock',
    about: '关于 SkillDock',
    hide: '隐藏 SkillDock',
    hideOthers: '隐藏其他',
    unhide: '全部显示',
    undo: '撤销',
    redo: '重做',
    cut: '剪切',
    copy: '复制',
    paste: '粘贴',
    selectAll: '全选',
    reload: '重新加载',
    toggleDevTools: '切换开发者工具',
    resetZoom: '实际大小',
    zoomIn: '放大',
    zoomOut: '缩小',
    fullscreen: '切换全屏',
    minimize: '最小化',
    close: '关闭窗口',
    website: 'Agent Skills 规范',
  },
  'zh-TW': {
    app: 'SkillDock',
    file: '檔案',
    edit: '編輯',
    view: '檢視',
    window: '視窗',
    help: '說明',
    quit: '結束 SkillDock',
    about: '關於 SkillDock',
    hide: '隱藏 SkillDock',
    hideOthers: '隱藏其他',
    unhide: '全部顯示',
    undo: '復原',
    redo: '重做',
    cut: '剪下',
    copy: '拷貝',
    paste: '貼上',
    selectAll: '全選',
    reload: '重新載入',
    toggleDevTools: '切換開發者工具',
    resetZoom: '實際大小',
    zoomIn: '放大',
    zoomOut: '縮小',
    fullscreen: '切換全螢幕',
    minimize: '最小化',
    close: '關閉視窗',
    website: 'Agent Skills 規格',
  },
  ja: {
    app: 'SkillDock',
    file: 'ファイル',
    edit: '編集',
    view: '表示',
    window: 'ウインドウ',
    help: 'ヘルプ',
    quit: 'SkillDock を終了',
    about: 'SkillDock について',
    hide: 'SkillDock を隠す',
    hideOthers: 'ほかを隠す',
    unhide: 'すべてを表示',
    undo: '取り消す',
    redo: 'やり直す',
    cut: '切り取り',
    copy: 'コピー',
    paste: '貼り付け',
    selectAll: 'すべてを選択',
    reload: '再読み込み',
    toggleDevTools: '開発者ツールの切り替え',
    resetZoom: '実際のサイズ',
    zoomIn: '拡大',
    zoomOut: '縮小',
    fullscreen: 'フルスクリーンの切り替え',
    minimize: '最小化',
    close: 'ウインドウを閉じる',
    website: 'Agent Skills 仕様',
  },
};

/** The menu language: the user's setting, else the OS locale, else English. */
export function menuLanguage(setting: Language | null | undefined, osLocale: string): (typeof MENU_LANGUAGES)[number] {
  if (setting && (MENU_LANGUAGES as readonly string[]).includes(setting)) return setting as (typeof MENU_LANGUAGES)[number];
  const l = osLocale.toLowerCase();
  if (l.startsWith('zh')) return /tw|hk|mo|hant/.test(l) ? 'zh-TW' : 'zh-CN';
  if (l.startsWith('ja')) return 'ja';
  return 'en';
}
