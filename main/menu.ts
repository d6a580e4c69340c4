import { Menu, app, shell, type MenuItemConstructorOptions } from 'electron';
import type { SkillDockService } from '../src/service.js';
import { MENU_LABELS, menuLanguage } from './menu-labels.js';

const SPEC_URL = 'https://agentskills.io/specification';

function buildTemplate(lang: keyof typeof MENU_LABELS): MenuItemConstructorOptions[] {
  const t = MENU_LABELS[lang];
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
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
    });
  } else {
    template.push({ label: t.file, submenu: [{ role: 'quit', label: t.quit }] });
  }
  template.push(
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
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools', label: t.toggleDevTools } as MenuItemConstructorOptions]),
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
    { label: t.help, submenu: [{ label: t.website, click: () => void shell.openExternal(SPEC_URL) }] },
  );
  return template;
}

/** The localized menu, rebuilt when the language setting changes. */
export function setupMenu(engine: SkillDockService): void {
  const apply = (setting: Parameters<typeof menuLanguage>[0]) =>
    Menu.setApplicationMenu(Menu.buildFromTemplate(buildTemplate(menuLanguage(setting, app.getLocale()))));
  void engine
    .call('getSettings', {})
    .then((r) => apply(r.ok ? (r.value as { language: Parameters<typeof menuLanguage>[0] }).language : null));
  engine.on((event) => {
    if (event.type === 'settings-changed') apply(event.settings.language);
  });
}
