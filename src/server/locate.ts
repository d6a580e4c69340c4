import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The built renderer: `SKILLDOCK_RENDERER_DIR`, else `dist/renderer` next to or above the running file.
 * A checkout's source `renderer/` has an index.html too, which loads `./src/main.tsx`: served as is,
 * the browser gets TypeScript as `application/octet-stream` and shows a blank page. So a folder counts
 * only when its index.html is a build's (it loads no source module); otherwise the search goes on, and
 * finding none the server says the UI is not built and how to build it.
 */
export function findRendererDir(env: NodeJS.ProcessEnv = process.env, from: string = fileURLToPath(import.meta.url)): string | null {
  if (env.SKILLDOCK_RENDERER_DIR) return path.resolve(env.SKILLDOCK_RENDERER_DIR);
  let dir = path.dirname(from);
  for (let i = 0; i < 6; i++) {
    for (const candidate of [path.join(dir, 'renderer'), path.join(dir, 'dist', 'renderer')]) {
      if (isBuiltRenderer(candidate)) return candidate;
    }
    dir = path.dirname(dir);
  }
  return null;
}

/** A script tag whose source is a TypeScript or JSX file: what Vite builds from, never what it emits. */
const SOURCE_MODULE = /<script\b[^>]*\bsrc\s*=\s*["'][^"']*\.(?:tsx?|jsx|mts)["']/i;

function isBuiltRenderer(dir: string): boolean {
  let html: string;
  try {
    html = readFileSync(path.join(dir, 'index.html'), 'utf8');
  } catch {
    return false;
  }
  return !SOURCE_MODULE.test(html);
}

/** Argv that asks the OS to open a URL in the default browser. */
export function openerCommand(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === 'darwin') return ['open', [url]];
  // `start` treats its first quoted argument as a window title, hence the empty one.
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return ['xdg-open', [url]];
}

/** Resolves false when no opener exists (headless machines) instead of failing. */
export function openInBrowser(url: string): Promise<boolean> {
  const [cmd, args] = openerCommand(url);
  return new Promise((resolve) => {
    try {
      const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
      child.once('error', () => resolve(false));
      child.once('spawn', () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
