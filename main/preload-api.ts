import { IPC, methodNames, type ImportPickKind, type Result, type SkillDockBridge, type SkillDockEvent } from '../src/contract/index.js';

/** The slice of `ipcRenderer` the bridge uses; a capture shim in tests. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface WebUtilsLike {
  getPathForFile(file: never): string;
}

async function invoke<T>(ipc: IpcRendererLike, channel: string, payload?: unknown): Promise<Result<T>> {
  try {
    return (await ipc.invoke(channel, payload)) as Result<T>;
  } catch (err) {
    // A missing handler or a dead main process: still a Result, never a thrown IPC error with a stack.
    return {
      ok: false,
      error: { code: 'internal', message: String((err as Error)?.message ?? err).replace(/^Error invoking remote method '[^']*': /, '') },
    };
  }
}

/**
 * The one object the preload exposes as `window.skilldock`: one function per contract method,
 * generated from `methodNames`, plus the desktop helpers of `bridgeExtras`. Each function passes
 * only its payload; the IPC event object (with `sender`) never reaches the page.
 */
export function buildBridge(ipc: IpcRendererLike, webUtils: WebUtilsLike, platform: string): SkillDockBridge {
  const bridge: Record<string, unknown> = {};
  for (const name of methodNames) {
    bridge[name] = (input?: unknown) => invoke(ipc, IPC.method(name), input ?? {});
  }
  bridge.onEvent = (listener: (event: SkillDockEvent) => void) => {
    if (typeof listener !== 'function') throw new TypeError('onEvent needs a function');
    const handler = (_event: unknown, payload: unknown) => listener(payload as SkillDockEvent);
    ipc.on(IPC.event, handler);
    return () => {
      ipc.removeListener(IPC.event, handler);
    };
  };
  bridge.getPathForFile = (file: object) => {
    try {
      return webUtils.getPathForFile(file as never) || '';
    } catch {
      return '';
    }
  };
  bridge.pickImportPaths = (kind: ImportPickKind) => invoke<string[]>(ipc, IPC.pickImportPaths, kind);
  bridge.pickFolder = () => invoke<string | null>(ipc, IPC.pickFolder);
  bridge.revealPath = (path: string) => invoke<null>(ipc, IPC.revealPath, path);
  bridge.platform = platform;
  return Object.freeze(bridge) as unknown as SkillDockBridge;
}
