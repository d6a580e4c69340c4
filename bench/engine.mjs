// Shared by the bench modules: bench files are plain .mjs while the engine is TypeScript, so each
// in-process bench bundles the engine entry points it needs once per run.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Median; the mean of the two middle values for an even count. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Bundle `contents` (TypeScript re-exports from the repo root) into `tmp` and import it. */
export async function loadEngine(root, tmp, contents) {
  const outfile = path.join(tmp, 'engine.mjs');
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    outfile,
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  return import(pathToFileURL(outfile).href);
}

const scratch = [];
/**
 * Remove a benchmark's scratch dir when the whole run ends, not when that benchmark ends: on this
 * VM's ext4 (mounted with `discard`) a mass delete makes every inode created in the next minutes
 * slow, which would tax the benchmarks that follow (launch creates links, the copy creates files)
 * for work another benchmark did. Everything is still removed, on exit or Ctrl-C.
 */
export function removeAtExit(dir) {
  scratch.push(dir);
  if (scratch.length > 1) return;
  const clean = () => {
    for (const d of scratch.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  };
  process.on('exit', clean);
  process.on('SIGINT', () => {
    clean();
    process.exit(130);
  });
}
