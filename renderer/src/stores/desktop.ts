import { client } from '../client-port';

/**
 * What only the desktop window can do: native pickers, real paths of dropped files, the OS file
 * manager. The browser UI has none of it; each `can…` says so synchronously, so a page can hide a
 * button or fall back to a file input inside the user's click.
 */
export const desktop = {
  isDesktop: (): boolean => client().isDesktop,
  canPickFolder: (): boolean => Boolean(client().pickFolder),
  /** A folder from the native picker; null when cancelled or not available. */
  pickFolder: async (): Promise<string | null> => (await client().pickFolder?.()) ?? null,
  canReveal: (): boolean => Boolean(client().revealPath),
  /** Show a file or folder in the OS file manager. */
  reveal: async (path: string): Promise<void> => {
    await client().revealPath?.(path);
  },
  canPickImport: (): boolean => client().isDesktop && Boolean(client().pickImportPaths),
  /** Folders or archives to import, from the native picker (none when cancelled or not available). */
  pickImportPaths: async (kind: 'folders' | 'archives'): Promise<string[]> => (await client().pickImportPaths?.(kind)) ?? [],
  /** Real paths of dropped files (desktop); null where the window cannot tell them (the browser uploads instead). */
  pathsOf: (files: readonly File[]): string[] | null => {
    const c = client();
    if (!c.isDesktop || !c.pathForFile) return null;
    return files.map((f) => c.pathForFile!(f)).filter((p): p is string => Boolean(p));
  },
};
