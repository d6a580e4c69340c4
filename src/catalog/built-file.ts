import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A file the build puts next to the running bundle (dist/), or in the folder above it (a bundle in
 * dist/main/): null when running from source, where the catalog does everything on its own thread.
 */
export function findBuiltFile(name: string): string | null {
  let here: string;
  try {
    here = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    return null;
  }
  for (const dir of [here, path.dirname(here)]) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}
