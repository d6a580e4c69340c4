import type { Api, SkillDockEvent } from '../../../src/contract/index';
import { METHOD_NAMES } from '../../../src/contract/names';
import type { ImportPickKind, SkillDockBridge } from '../../../src/contract/bridge';
import { unwrap } from './errors';

/** The desktop door: `window.skilldock` from the Electron preload, with Results unwrapped into ApiErrors. */
export interface BridgeClient {
  api: Api;
  onEvent(listener: (event: SkillDockEvent) => void): () => void;
  pathForFile(file: File): string | null;
  pickImportPaths(kind?: ImportPickKind): Promise<string[]>;
  pickFolder(): Promise<string | null>;
  revealPath(path: string): Promise<void>;
  platform: string;
}

export function createBridgeClient(bridge: SkillDockBridge): BridgeClient {
  const api = Object.fromEntries(
    METHOD_NAMES.map((name) => {
      const fn = bridge[name] as (input: unknown) => Promise<unknown>;
      return [name, async (input?: unknown) => unwrap(await fn(input ?? {}))];
    }),
  ) as unknown as Api;
  return {
    api,
    // IPC has no connection to lose: events reach the listener from the moment it is added, so
    // there is no reopening to report (the port's onOpen is never called here).
    onEvent: (listener) => bridge.onEvent(listener),
    pathForFile: (file) => bridge.getPathForFile(file) || null,
    pickImportPaths: async (kind = 'folders') => unwrap<string[]>(await bridge.pickImportPaths(kind)),
    pickFolder: async () => unwrap<string | null>(await bridge.pickFolder()),
    revealPath: async (path) => {
      unwrap<null>(await bridge.revealPath(path));
    },
    platform: bridge.platform,
  };
}
