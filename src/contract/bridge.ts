import type { MethodInput, MethodName, MethodOutput } from './index.js';
import type { Result } from './common.js';
import type { SkillDockEvent } from './index.js';

/**
 * `window.skilldock`, the one object the Electron preload exposes. Derived from the contract so it
 * cannot drift: one function per contract method, each resolving to a Result (errors cannot cross
 * contextBridge as thrown objects without losing their code), plus the few desktop-only helpers
 * named in `bridgeExtras`. Nothing else: no ipcRenderer, no generic invoke, no process.env.
 */
export type BridgeMethods = {
  [K in MethodName]: (input?: MethodInput<K>) => Promise<Result<MethodOutput<K>>>;
};

export type ImportPickKind = 'folders' | 'archives';

export interface BridgeExtras {
  /** Engine events; returns the unsubscribe function. */
  onEvent(listener: (event: SkillDockEvent) => void): () => void;
  /** Real path of a dropped File (Electron `webUtils.getPathForFile`); '' when it has none. */
  getPathForFile(file: object): string;
  /** Native picker for skill folders or `.zip`/`.skill` archives to import; [] when cancelled. */
  pickImportPaths(kind: ImportPickKind): Promise<Result<string[]>>;
  /** Native folder picker (project folder, extra root); null when cancelled. */
  pickFolder(): Promise<Result<string | null>>;
  /** Show a file or folder in the OS file manager. */
  revealPath(path: string): Promise<Result<null>>;
  /** `process.platform` of the desktop app, for platform-specific wording. */
  platform: string;
}

/** The non-contract keys of the bridge, checked by the preload test and the main-side handlers. */
export const bridgeExtras = [
  'onEvent',
  'getPathForFile',
  'pickImportPaths',
  'pickFolder',
  'revealPath',
  'platform',
] as const satisfies readonly (keyof BridgeExtras)[];

export type SkillDockBridge = BridgeMethods & BridgeExtras;

/** IPC channel names: `skilldock:<method>` for contract methods, fixed names for the rest. */
export const IPC = {
  method: (name: string) => `skilldock:${name}`,
  event: 'skilldock:event',
  pickImportPaths: 'skilldock:pick-import-paths',
  pickFolder: 'skilldock:pick-folder',
  revealPath: 'skilldock:reveal-path',
} as const;
