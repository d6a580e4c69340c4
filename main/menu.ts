import { Menu, app, shell } from 'electron';
import type { SkillDockService } from '../src/service.js';
import { MENU_WORDS, menuLanguage, menuTemplate } from './menu-template.js';

const SPEC_URL = 'https://agentskills.io/specification';

/** The localized menu, rebuilt when the language setting changes. */
export function setupMenu(engine: SkillDockService): void {
  const apply = (setting: Parameters<typeof menuLanguage>[0]) => {
    const words = MENU_WORDS[menuLanguage(setting, app.getLocale())];
    const template = menuTemplate(words, {
      mac: process.platform === 'darwin',
      packaged: app.isPackaged,
      openSpec: () => void shell.openExternal(SPEC_URL),
    });
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  };
  void engine
    .call('getSettings', {})
    .then((r) => apply(r.ok ? (r.value as { language: Parameters<typeof menuLanguage>[0] }).language : null));
  engine.on((event) => {
    if (event.type === 'settings-changed') apply(event.settings.language);
  });
}
