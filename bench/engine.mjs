// Shared by the bench modules: bench files are plain .mjs while the engine is TypeScript, so each
// in-process bench bundles the engine entry points it needs once per run.
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
