import type { Api, ConflictChoice, ImportSummary, SkillDockEvent } from '../../src/contract/index';

/**
 * What the pages need from the outside world. H5a's `client/` module provides it (preload bridge or
 * HTTP); tests hand in a fixture. Keeping the pages on this port means only `main.tsx` knows the
 * client module's export names.
 */
export interface ClientPort {
  api: Api;
  /**
   * Pushed engine events. `onOpen` runs each time a stream that can drop events (the browser's
   * event stream) opens or reopens: events pushed before it were lost, so read state again.
   */
  onEvent(listener: (event: SkillDockEvent) => void, onOpen?: () => void): () => void;
  isDesktop: boolean;
  /** Desktop: real path of a dropped File (Electron `webUtils.getPathForFile`). */
  pathForFile?(file: File): string | null;
  /** Desktop: native picker for folders and archives to import. */
  pickImportPaths?(kind?: 'folders' | 'archives'): Promise<string[]>;
  /** Desktop: show a file or folder in the OS file manager. */
  revealPath?(path: string): Promise<void>;
  /** Desktop: native folder picker (a project folder for launch, an extra root). */
  pickFolder?(): Promise<string | null>;
  /** Browser: upload dropped files/folders to the server's staging dir and import them. */
  upload?(items: DroppedItem[], options: UploadOptions): Promise<ImportSummary>;
}

export interface UploadOptions {
  importId: string;
  onConflict?: ConflictChoice;
  resolutions?: Record<string, ConflictChoice>;
  /** Upload (staging) progress, before the engine's own `import-progress` events. */
  onProgress?(p: { filesDone: number; filesTotal: number; bytesDone: number; bytesTotal: number }): void;
}

/** A dropped file with its path relative to the drop (folders flattened by the overlay). */
export interface DroppedItem {
  file: Blob;
  relativePath: string;
}

let current: ClientPort | null = null;

export function setClient(client: ClientPort): void {
  current = client;
}

export function client(): ClientPort {
  if (!current) throw new Error('client not set: call setClient() before rendering');
  return current;
}
