// Sandboxed preload: it can require only 'electron'; everything else is bundled in.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { buildBridge } from './preload-api.js';

contextBridge.exposeInMainWorld('skilldock', buildBridge(ipcRenderer, webUtils, process.platform));
