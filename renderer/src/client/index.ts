/**
 * The renderer's one way out. Desktop (Electron preload present as `window.skilldock`) or browser
 * (HTTP to the loopback server with the per-start token): this module picks, and nothing else in
 * the renderer knows which. Every API failure is an `ApiError { code, message }`.
 *
 * Import flow for drops, the same on both doors:
 *   const paths = await client.pathsFromDrop(event.dataTransfer, onProgress); // call inside onDrop
 *   const summary = await client.api.importPaths({ paths, importId });       // and again with resolutions
 * On the desktop `paths` are the real dropped paths; in the browser the files are first streamed to
 * `<home>/uploads/<batch>/` and `paths` are the staged copies.
 */
import type { Api, ImportSummary, SkillDockEvent } from '../../../src/contract/index';
import type { ImportPickKind, SkillDockBridge } from '../../../src/contract/bridge';
import type { ClientPort, DroppedItem, UploadOptions } from '../client-port';
import { apiError } from './errors';
import { createBridgeClient } from './bridge';
import { createHttpClient, type UploadProgress } from './http';
import { collectDropped } from './drop';
import { takeToken } from './token';

export type { UploadProgress } from './http';

export interface SkillDockClient extends ClientPort {
  api: Api;
  onEvent(listener: (event: SkillDockEvent) => void, onOpen?: () => void): () => void;
  isDesktop: boolean;
  /** Desktop: `process.platform`; browser: null. */
  platform: string | null;
  /** Paths to import from a drop, whichever door (see the module comment). */
  pathsFromDrop(dt: DataTransfer, onProgress?: (p: UploadProgress) => void): Promise<string[]>;
  /**
   * Browser only: stream the files to staging (once per `items` array: calling again with
   * resolutions after a conflict reuses the staged copy) and import them.
   */
  upload?(items: DroppedItem[], options: UploadOptions & { onProgress?: (p: UploadProgress) => void }): Promise<ImportSummary>;
  /** Browser only: stream files to staging; resolves to the staged paths for `importPaths`. */
  stage?(items: DroppedItem[], onProgress?: (p: UploadProgress) => void): Promise<string[]>;
  /** Desktop only. */
  pickImportPaths?(kind?: ImportPickKind): Promise<string[]>;
  pickFolder?(): Promise<string | null>;
  revealPath?(path: string): Promise<void>;
  pathForFile?(file: File): string | null;
}

function fromBridge(bridge: SkillDockBridge): SkillDockClient {
  const b = createBridgeClient(bridge);
  return {
    api: b.api,
    onEvent: b.onEvent,
    isDesktop: true,
    platform: b.platform,
    pathForFile: b.pathForFile,
    pickImportPaths: b.pickImportPaths,
    pickFolder: b.pickFolder,
    revealPath: b.revealPath,
    async pathsFromDrop(dt) {
      const paths = Array.from(dt.files ?? [])
        .map((f) => b.pathForFile(f))
        .filter((p): p is string => !!p);
      if (paths.length === 0) throw apiError('bad-request', { key: 'upload.no-paths' });
      return paths;
    },
  };
}

function fromHttp(): SkillDockClient {
  const token = takeToken({ location: window.location, history: window.history, storage: window.sessionStorage });
  const h = createHttpClient({ origin: '', token });
  const staged = new WeakMap<object, Promise<string[]>>();
  const stage = (items: DroppedItem[], onProgress?: (p: UploadProgress) => void): Promise<string[]> => {
    let done = staged.get(items);
    if (!done) {
      done = h.upload(items, onProgress).then((r) => r.paths);
      done.catch(() => staged.delete(items));
      staged.set(items, done);
    }
    return done;
  };
  return {
    api: h.api,
    onEvent: h.onEvent,
    isDesktop: false,
    platform: null,
    stage,
    async upload(items, { onProgress, ...options }) {
      const paths = await stage(items, onProgress);
      return h.api.importPaths({ paths, ...options });
    },
    async pathsFromDrop(dt, onProgress) {
      const items = await collectDropped(dt);
      return (await h.upload(items, onProgress)).paths;
    },
  };
}

/** Chosen once, when the renderer starts. */
export function createClient(): SkillDockClient {
  const bridge = (window as unknown as { skilldock?: SkillDockBridge }).skilldock;
  return bridge ? fromBridge(bridge) : fromHttp();
}
