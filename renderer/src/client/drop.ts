import type { UploadItem } from './http';

/**
 * Turn a browser drop into files with relative paths, walking dropped folders. Entries must be
 * taken synchronously inside the drop handler (the DataTransfer is emptied afterwards), so call
 * this first thing in `onDrop` and await it afterwards.
 */
export function collectDropped(dt: DataTransfer): Promise<UploadItem[]> {
  const entries: FileSystemEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(dt.items ?? [])) {
    if (item.kind !== 'file') continue;
    const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  if (entries.length === 0 && loose.length === 0) loose.push(...Array.from(dt.files ?? []));
  return (async () => {
    const out: UploadItem[] = loose.map((file) => ({ file, relativePath: file.name }));
    for (const entry of entries) await walk(entry, out);
    return out;
  })();
}

async function walk(entry: FileSystemEntry, out: UploadItem[]): Promise<void> {
  const rel = entry.fullPath.replace(/^\/+/, '') || entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    out.push({ file, relativePath: rel });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries hands out at most ~100 entries per call; keep asking until it returns none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, out);
  }
}

/** Files chosen through `<input webkitdirectory>` or `<input multiple>` carry their own relative path. */
export function itemsFromFileList(files: FileList | File[]): UploadItem[] {
  return Array.from(files).map((file) => ({
    file,
    relativePath: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name,
  }));
}
