// SkillDock desktop: the Electron main process. Each step lives in its own module.
import { app, BrowserWindow } from 'electron';
import { registerAppScheme, serveRenderer } from './app-protocol.js';
import { createEngine, preloadPath, rendererDir } from './engine.js';
import { setupEvents, setupIpc, trustWindow } from './ipc.js';
import { setupMenu } from './menu.js';
import { createMainWindow } from './window.js';

function setupSingleInstance(): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  return true;
}

function openWindow(): void {
  trustWindow(createMainWindow(preloadPath()));
}

function setupLifecycle(close: () => Promise<void>): void {
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });
  app.on('will-quit', () => void close());
}

if (setupSingleInstance()) {
  registerAppScheme();
  void app.whenReady().then(() => {
    const engine = createEngine();
    serveRenderer(rendererDir());
    setupIpc(engine);
    setupEvents(engine);
    setupMenu(engine);
    setupLifecycle(() => engine.close());
    openWindow();
  });
}
