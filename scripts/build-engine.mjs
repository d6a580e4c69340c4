// Bundles the engine front doors that run on Node: the CLI (which also serves the browser UI)
// and the Electron main process and preload. Fast (esbuild), so `npm install` runs it via `prepare`.
import { build } from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';

const common = { bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning', legalComments: 'none' };

// Split at the CLI's dynamic imports: `--help` and a command's own `--help` load only the entry
// (command names and usage), a command loads the engine when it runs. Chunks sit next to cli.mjs,
// so the engine's `import.meta.url` lookups (resources, the worker script) resolve as before.
for (const f of existsSync('dist') ? readdirSync('dist') : []) if (/^chunk-.*\.mjs(\.map)?$/.test(f)) rmSync(`dist/${f}`);
await build({
  ...common,
  entryPoints: { cli: 'src/cli/entry.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  splitting: true,
  format: 'esm',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});

// The catalog analyses big batches of skills on worker threads; it finds this file next to cli.mjs.
await build({
  ...common,
  entryPoints: ['src/catalog/analyze-worker.ts'],
  outfile: 'dist/analyze-worker.mjs',
  format: 'esm',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});

if (existsSync('main/index.ts')) {
  // The engine finds its files through import.meta.url, which CommonJS lacks: give it this file's URL.
  await build({
    ...common,
    entryPoints: ['main/index.ts'],
    outfile: 'dist/main/index.cjs',
    format: 'cjs',
    external: ['electron'],
    banner: { js: "const __sd_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__sd_import_meta_url' },
  });
}
if (existsSync('main/preload.ts')) {
  // A sandboxed preload can only require('electron'): bundle everything else in.
  await build({
    ...common,
    entryPoints: ['main/preload.ts'],
    outfile: 'dist/main/preload.cjs',
    format: 'cjs',
    external: ['electron'],
    platform: 'browser',
  });
}
