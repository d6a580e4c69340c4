// Bundles the engine front doors that run on Node: the CLI (which also serves the browser UI)
// and the Electron main process and preload. Fast (esbuild), so `npm install` runs it via `prepare`.
import { build } from 'esbuild';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// gray-matter loads js-yaml (and through it esprima, at run time) for its default YAML engine.
// SkillDock never uses that engine: src/skills/parse.ts passes its own parser for YAML and refusing
// ones for every other language. Bundle a stand-in that refuses too: a start (`list`, the hook)
// then compiles neither js-yaml nor esprima.
const grayMatterYaml = {
  name: 'gray-matter-yaml',
  setup(b) {
    b.onResolve({ filter: /^js-yaml$/ }, (args) =>
      /[\\/]gray-matter[\\/]/.test(args.importer) ? { path: 'js-yaml', namespace: 'sd-refusing-yaml' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'sd-refusing-yaml' }, () => ({
      loader: 'js',
      contents:
        "const refuse = () => { throw new Error('gray-matter default YAML engine: not bundled (SkillDock parses YAML itself)'); };\n" +
        'module.exports = { safeLoad: refuse, safeDump: refuse };\n',
    }));
  },
};

// The English of every engine message (src/contract/messages-*.ts, ~50 KB of tables) is needed only
// when a message is worded: an error, a diagnostic of a skill being analysed. A start that words
// nothing (`list` on a valid index, the hook) should not compile it. In the CLI's bundles,
// messages-text.ts is replaced by a stand-in with the same exports that loads the tables from
// dist/engine-messages.cjs (built below) on first use: synchronously, as `formatMessage` is called.
const messagesText = path.resolve('src/contract/messages-text.ts');
const lazyMessages = {
  name: 'lazy-messages',
  setup(b) {
    b.onResolve({ filter: /[\\/]messages-text\.js$/ }, (args) =>
      path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')) === messagesText
        ? { path: 'messages-text', namespace: 'sd-lazy-messages' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'sd-lazy-messages' }, () => ({
      loader: 'js',
      resolveDir: path.dirname(messagesText),
      contents: `import { createRequire } from 'node:module';
export { isMessageRef } from './message-ref.ts';
let loaded;
const load = () => (loaded ??= createRequire(import.meta.url)('./engine-messages.cjs'));
export const formatMessage = (ref) => load().formatMessage(ref);
export const englishTemplate = (key, params) => load().englishTemplate(key, params);
export const messageKeys = () => load().messageKeys();
const table = () => load().ENGINE_MESSAGES;
export const ENGINE_MESSAGES = new Proxy({}, {
  get: (_, k) => table()[k],
  has: (_, k) => k in table(),
  ownKeys: () => Reflect.ownKeys(table()),
  getOwnPropertyDescriptor: (_, k) => { const d = Reflect.getOwnPropertyDescriptor(table(), k); return d && { ...d, configurable: true }; },
});
`,
    }));
  },
};

// The MCP SDK's server module imports ajv (~300 KB, a third of a cold `skilldock mcp` start) to check
// a client's answers to elicitation forms against their JSON Schema. SkillDock's server never asks
// for one and gives the SDK its own validator (jsonSchemaValidator in src/mcp/server.ts, the SDK's
// pluggable option), so the default is never made: bundle a stand-in that says so if it ever were.
const noAjv = {
  name: 'no-ajv',
  setup(b) {
    b.onResolve({ filter: /[\\/]validation[\\/]ajv-provider\.js$/ }, (args) =>
      /[\\/]@modelcontextprotocol[\\/]sdk[\\/]/.test(args.importer) ? { path: 'ajv-provider', namespace: 'sd-no-ajv' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'sd-no-ajv' }, () => ({
      loader: 'js',
      contents:
        'export class AjvJsonSchemaValidator {\n' +
        "  constructor() { throw new Error('ajv is not bundled: pass jsonSchemaValidator to the MCP server (src/mcp/server.ts)'); }\n" +
        '}\n',
    }));
  },
};

// Node's built-ins by `require`, one small module per built-in for the whole bundle. An ES import
// of a built-in builds its ES-module facade, whose getters load what they name (node:fs's loads
// fs/promises and node:stream: a few ms of a start that uses neither); and in a CommonJS bundle,
// esbuild's interop copies every property of the module once for each file that imports it (~45
// copies, several ms). The named exports are the module's plain properties, read once; a getter
// (fs.promises) is left out, so importing it by name fails the build instead of loading it.
// Asked of a fresh Node: in this process a lazy getter that something already read (esbuild reads
// fs.opendir) has become a plain property, and a bundle would then read it at every start.
const plainCache = new Map();
function plainExports(id) {
  if (!plainCache.has(id)) {
    const script = `const m = require(${JSON.stringify(id)}); process.stdout.write(JSON.stringify(Object.getOwnPropertyNames(m).filter((n) => n !== 'default' && /^[A-Za-z_$][\\w$]*$/.test(n) && 'value' in Object.getOwnPropertyDescriptor(m, n))))`;
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`the exports of ${id}: ${r.stderr}`);
    plainCache.set(id, JSON.parse(r.stdout));
  }
  return plainCache.get(id);
}
const requiredBuiltins = {
  name: 'required-builtins',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === 'import-statement' ? { path: args.path, namespace: 'sd-builtin' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'sd-builtin' }, (args) => {
      const names = plainExports(args.path);
      return {
        loader: 'js',
        contents: [
          `const m = require(${JSON.stringify(args.path)});`,
          'export default m;',
          ...names.map((n) => `export const ${n} = m.${n};`),
        ].join('\n'),
      };
    });
  },
};

// Every bundle of one build keys the engine's caches (validation memos, the catalog index) the same
// way (src/store/lazy-schema.ts engineBuild): a hook answered by dist/hook.cjs reads the memos the
// CLI or the app wrote, and a rebuild invalidates them all.
const BUILD_ID = `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;

const common = {
  bundle: true,
  define: { __SKILLDOCK_ENGINE_BUILD__: JSON.stringify(BUILD_ID) },
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [grayMatterYaml],
};

// Split at the CLI's dynamic imports: `--help` and a command's own `--help` load only the entry
// (command names and usage), a command loads the engine when it runs. Chunks sit next to cli.mjs,
// so the engine's `import.meta.url` lookups (resources, the worker script) resolve as before.
for (const f of existsSync('dist') ? readdirSync('dist') : []) if (/^chunk-.*\.mjs(\.map)?$/.test(f)) rmSync(`dist/${f}`);
await build({
  ...common,
  // engine: the engine alone, for the MCP door (src/cli/engine-entry.ts), sharing cli's chunks.
  entryPoints: { cli: 'src/cli/entry.ts', engine: 'src/cli/engine-entry.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  splitting: true,
  format: 'esm',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  plugins: [grayMatterYaml, lazyMessages, noAjv],
});
// The message tables the CLI's stand-in loads (above).
await build({
  ...common,
  entryPoints: [messagesText],
  outfile: 'dist/engine-messages.cjs',
  format: 'cjs',
});

// `list --json` read by a program (scripts, agents, the app's tests) has a door of its own too
// (src/cli/list-entry.ts, picked by bin/skilldock.js): one CommonJS file, so a start loads no
// ES-module loader and no chunks (each costs its resolution and link), and takes Node's built-ins
// by require (their ES-module facades load node:stream). What it does not answer goes to cli.mjs.
// Its catalog's dynamic imports: the analyser (needed when a skill changed since the index) is a
// bundle of its own, dist/analyze.cjs, loaded on first use and given the door's registry (a
// separate bundle shares no module cache); the rest serves other commands and is left out.
const conversionDefine = { 'import.meta.url': '__sd_import_meta_url' };
const conversionBanner = { js: "const __sd_import_meta_url = require('node:url').pathToFileURL(__filename).href;" };
const analyzeTs = path.resolve('src/skills/analyze.ts');
const listDoorImports = {
  name: 'list-door-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const target = path.resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      return target === analyzeTs
        ? { path: 'analyze', namespace: 'sd-door-analyze' }
        : { path: path.relative('src', target), namespace: 'sd-not-in-door' };
    });
    b.onLoad({ filter: /.*/, namespace: 'sd-door-analyze' }, () => ({
      loader: 'js',
      resolveDir: path.resolve('src/agents'),
      contents: `import { loadRegistry } from './registry.ts';
let lib;
export const analyzeSkill = (dir, options) =>
  (lib ??= require(require('node:path').join(__dirname, 'analyze.cjs'))).analyzeSkill(dir, {
    ...options,
    registry: options.registry ?? loadRegistry(options.resourcesDir),
  });
`,
    }));
    b.onLoad({ filter: /.*/, namespace: 'sd-not-in-door' }, (args) => ({
      loader: 'js',
      contents: `throw new Error(${JSON.stringify(`skilldock: src/${args.path} is not part of the list door (dist/list.cjs)`)});\n`,
    }));
  },
};
/** A door: one CommonJS file whose first line names the build (bin/skilldock.js uses a code cache only if it starts with it). */
async function door(name, entry, plugins) {
  rmSync(`dist/${name}.cjs.v8`, { force: true }); // made for the bundle it was made with (below)
  await build({
    ...common,
    entryPoints: [entry],
    outfile: `dist/${name}.cjs`,
    format: 'cjs',
    define: { ...common.define, ...conversionDefine },
    banner: { js: `// skilldock ${name} door, build ${BUILD_ID}\n${conversionBanner.js}` },
    plugins: [requiredBuiltins, grayMatterYaml, lazyMessages, ...plugins],
  });
  // bin/skilldock.js compiles a door as a script, which has no loader for import(). (A line comment
  // that names it, as one of zod's does, is no call.)
  const code = readFileSync(`dist/${name}.cjs`, 'utf8').replace(/^\s*\/\/.*$/gm, '');
  if (/\bimport\(/.test(code)) throw new Error(`dist/${name}.cjs must not use import()`);
}
await door('list', 'src/cli/list-entry.ts', [listDoorImports]);
// `policy check-write --hook` runs before every write of an agent: its door holds only the hook's
// code (its few lazy imports bundled in).
await door('hook', 'src/cli/hook-entry.ts', []);
// `skilldock mcp` on stdio: the SDK's server and stdio transport and the session code; the engine
// comes from dist/engine.mjs once the handshake is answered.
await door('mcp', 'src/cli/mcp-entry.ts', [noAjv]);
for (const old of ['dist/hook.mjs', 'dist/hook.mjs.map']) rmSync(old, { force: true }); // its ES-module door of before
await build({
  ...common,
  entryPoints: [analyzeTs],
  outfile: 'dist/analyze.cjs',
  format: 'cjs',
  define: { ...common.define, ...conversionDefine },
  banner: conversionBanner,
  plugins: [grayMatterYaml, lazyMessages],
});
// The doors' V8 code caches (dist/<door>.cjs.v8): they start without compiling their code. The
// script answers one hook call, read from its stdin.
{
  const call = { cwd: os.tmpdir(), tool_name: 'Write', tool_input: { file_path: path.join(os.tmpdir(), 'notes.md') } };
  const made = spawnSync(process.execPath, ['scripts/door-cache.cjs'], {
    input: JSON.stringify(call),
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  if (made.status !== 0) console.warn('build-engine: no code cache for the doors (they compile at each start)');
}

// The catalog analyses big batches of skills on worker threads; it finds this file next to cli.mjs.
await build({
  ...common,
  entryPoints: ['src/catalog/analyze-worker.ts'],
  outfile: 'dist/analyze-worker.mjs',
  format: 'esm',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});

// A first scan on two cores reads ahead on a thread of its own (src/catalog/read-ahead.ts): a small
// CommonJS file (no loader to start), found next to cli.mjs and list.cjs.
await build({
  ...common,
  entryPoints: ['src/catalog/read-worker.ts'],
  outfile: 'dist/read-worker.cjs',
  format: 'cjs',
  plugins: [requiredBuiltins],
});

if (existsSync('main/index.ts')) {
  // The engine finds its files through import.meta.url, which CommonJS lacks: give it this file's URL.
  await build({
    ...common,
    entryPoints: ['main/index.ts'],
    outfile: 'dist/main/index.cjs',
    format: 'cjs',
    external: ['electron'],
    banner: conversionBanner,
    // With the build id: the app shares the CLI's caches (an index one writes, the other trusts).
    define: { ...common.define, ...conversionDefine },
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
