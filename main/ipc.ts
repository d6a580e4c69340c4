import { BrowserWindow, dialog, ipcMain, shell, type IpcMainInvokeEvent } from 'electron';
import { IPC, methodNames } from '../src/contract/index.js';
import type { SkillDockService } from '../src/service.js';
import { handleExtraCall, handleMethodCall, type SenderInfo, type SenderPolicy } from './ipc-guard.js';
import { APP_ORIGIN } from './app-protocol.js';

const trustedWebContents = new Set<number>();
const policy: SenderPolicy = { trustedWebContents, trustedOrigins: [APP_ORIGIN] };

/** Only windows registered here may call; everything else is refused by the guard. */
export function trustWindow(win: BrowserWindow): void {
  const id = win.webContents.id;
  trustedWebContents.add(id);
  win.on('closed', () => trustedWebContents.delete(id));
}

function senderOf(event: IpcMainInvokeEvent): SenderInfo {
  const frame = event.senderFrame;
  return {
    webContentsId: event.sender.id,
    frameUrl: frame?.url,
    isMainFrame: !!frame && frame === event.sender.mainFrame,
  };
}

const ARCHIVE_FILTERS = [{ name: 'Skill archives', extensions: ['zip', 'skill'] }];

export function setupIpc(engine: SkillDockService): void {
  for (const name of methodNames) {
    ipcMain.handle(IPC.method(name), (event, payload: unknown) => handleMethodCall(engine, policy, senderOf(event), name, payload));
  }
  ipcMain.handle(IPC.pickImportPaths, (event, payload: unknown) =>
    handleExtraCall(policy, senderOf(event), 'pickImportPaths', payload, async (kind) => {
      const win = BrowserWindow.fromWebContents(event.sender);
      const options: Electron.OpenDialogOptions =
        kind === 'folders'
          ? { properties: ['openDirectory', 'multiSelections'] }
          : { properties: ['openFile', 'multiSelections'], filters: ARCHIVE_FILTERS };
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return r.canceled ? [] : r.filePaths;
    }),
  );
  ipcMain.handle(IPC.pickFolder, (event, payload: unknown) =>
    handleExtraCall(policy, senderOf(event), 'pickFolder', payload, async () => {
      const win = BrowserWindow.fromWebContents(event.sender);
      const options: Electron.OpenDialogOptions = { properties: ['openDirectory', 'createDirectory'] };
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return r.canceled || r.filePaths.length === 0 ? null : r.filePaths[0];
    }),
  );
  ipcMain.handle(IPC.revealPath, (event, payload: unknown) =>
    handleExtraCall(policy, senderOf(event), 'revealPath', payload, async (p) => {
      shell.showItemInFolder(p);
      return null;
    }),
  );
}

/** Engine events to every app window. */
export function setupEvents(engine: SkillDockService): void {
  engine.on((event) => {
    for (const win of BrowserWindow.getAllWindows()) {
      if (trustedWebContents.has(win.webContents.id)) win.webContents.send(IPC.event, event);
    }
  });
}
