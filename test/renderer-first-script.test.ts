import fs from 'node:fs';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// Issue 16 (a light first paint): what the renderer's entry loads before it can paint the Skills
// page. Languages, other pages, dialogs and the engine's English table are fetched when used; one
// static import (e.g. `formatMessage` from messages-text.ts in a shell module) drags them back into
// the first script. This follows the entry's static imports only, as the browser does before paint.

const root = path.resolve(__dirname, '..');

/** Source files in the entry chunk and the chunks it imports statically. */
async function firstScriptInputs(): Promise<string[]> {
  const r = await build({
    entryPoints: [path.join(root, 'renderer/src/main.tsx')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    outdir: path.join(root, 'dist', '.first-script-check'),
    loader: { '.css': 'empty', '.woff2': 'empty', '.woff': 'empty' },
    jsx: 'automatic',
    logLevel: 'silent',
    absWorkingDir: root,
  });
  const outputs: Metafile['outputs'] = r.metafile.outputs;
  const entry = Object.keys(outputs).find((o) => outputs[o].entryPoint?.endsWith('renderer/src/main.tsx'))!;
  const seen = new Set<string>();
  const walk = (o: string) => {
    if (seen.has(o)) return;
    seen.add(o);
    for (const imp of outputs[o].imports) if (imp.kind === 'import-statement') walk(imp.path);
  };
  walk(entry);
  // Only modules with code in the output: a module tree-shaken to nothing costs nothing.
  return [...seen].flatMap((o) => Object.entries(outputs[o].inputs).flatMap(([file, info]) => (info.bytesInOutput > 0 ? [file] : [])));
}

describe('the renderer first script', () => {
  let inputs: string[] = [];
  beforeAll(async () => {
    inputs = await firstScriptInputs();
  }, 60_000);

  it('has the shell and the Skills page', () => {
    expect(inputs.some((f) => f.endsWith('renderer/src/app.tsx'))).toBe(true);
    expect(inputs.some((f) => f.endsWith('renderer/src/pages/skills/skills-page.tsx'))).toBe(true);
  });

  it('carries no language: each is fetched when shown', () => {
    expect(inputs.filter((f) => /renderer\/src\/i18n\/locales\//.test(f))).toEqual([]);
    expect(inputs.filter((f) => /@arco-design\/web-react\/es\/locale\/(en-US|ja-JP|zh-HK)/.test(f))).toEqual([]);
  });

  it("carries neither the engine's English table nor zod", () => {
    expect(inputs.filter((f) => /src\/contract\/(messages-text|messages|index)\.ts$/.test(f))).toEqual([]);
    expect(inputs.filter((f) => /node_modules\/zod\//.test(f))).toEqual([]);
  });

  it('carries no other page, dialog or editor', () => {
    const lazy = [
      // (the Skills page shows the library's adopt banner)
      /pages\/library\/(?!adopt-banner)/,
      /pages\/(assistants|launch|agents|settings|editor)\//,
      /pages\/sources\/(updates-page|add-source-dialog)/,
      /pages\/skills\/skill-drawer/,
      /pages\/import\/import-panel/,
      /node_modules\/(@codemirror|react-markdown)\//,
    ];
    expect(inputs.filter((f) => lazy.some((re) => re.test(f)))).toEqual([]);
  });

  it('draws only light Arco components: the heavy ones come with the filters, the Import menu and other pages', () => {
    // Arco's internals are shared between chunks, so this reads what our first-script modules import
    // from Arco. Select (Trigger, InputTag, Checkbox, a virtual list), Menu and Dropdown, Layout
    // (ResizeBox), Typography (Tooltip, Popover) and the dialogs stay out of the first script.
    const heavy = new Set([
      'Select',
      'Switch',
      'Menu',
      'Dropdown',
      'Layout',
      'Typography',
      'Tooltip',
      'Popover',
      'Form',
      'Table',
      'Modal',
      'Drawer',
      'Tabs',
      'Tree',
      'Checkbox',
      'Radio',
      'Progress',
    ]);
    const used = new Map<string, string[]>();
    for (const file of inputs.filter((f) => f.startsWith('renderer/src/'))) {
      const text = fs.readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'@arco-design\/web-react'/g)) {
        for (const name of m[1]
          .split(',')
          .map((n) => n.trim().replace(/^type\s+.*/, ''))
          .filter(Boolean))
          used.set(name, [...(used.get(name) ?? []), file]);
      }
    }
    expect(used.has('Input')).toBe(true);
    expect([...used].filter(([name]) => heavy.has(name))).toEqual([]);
  });
});
