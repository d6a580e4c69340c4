// SkillDock desktop: the Electron main process. Each step lives in its own module.
import { app, BrowserWindow } from 'electron';
import { registerAppScheme, serveRenderer } from './app-protocol.js';
import { createEngine, preloadPath, rendererDir, setResourcesEnv } from './engine.js';
import { setupEvents, setupIpc, trustWindow } from './ipc.js';
import { setupMenu } from './menu.js';
import { createMainWindow } from './window.js';
import { cliArguments } from './cli-mode.js';
import { runCli } from '../src/cli/index.js';

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

/**
 * Long-lived mode for as long as the app runs: the catalog's default roots kept fresh from file
 * events (lookups and launches need not re-check every skill folder) and home files synced from
 * other processes. Runs in the background; a failure is logged, never fatal.
 */
function goLive(engine: ReturnType<typeof createEngine>): Promise<void> {
  return engine.live().then(
    () => undefined,
    (err: unknown) => console.error('SkillDock: could not watch the skill roots; every lookup re-checks them instead:', err),
  );
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

/** `SkillDock --cli <command> ...`: the CLI, then exit (main/cli-mode.ts). */
function runAsCli(args: string[]): void {
  setResourcesEnv();
  runCli(args).then(
    (code) => app.exit(code),
    (err: unknown) => {
      process.stderr.write(`skilldock: ${err instanceof Error ? err.message : String(err)}\n`);
      app.exit(1);
    },
  );
}

const cliArgs = cliArguments(process.argv);
if (cliArgs) runAsCli(cliArgs);
else if (setupSingleInstance()) {
  registerAppScheme();
  void app.whenReady().then(() => {
    const engine = createEngine();
    const watching = goLive(engine);
    serveRenderer(rendererDir());
    setupIpc(engine);
    setupEvents(engine);
    setupMenu(engine);
    // A watch still starting must settle first, or it would be set up after the engine closed.
    setupLifecycle(() => watching.then(() => engine.close()));
    openWindow();
  });
}
