// The layer rule of docs/architecture.md, enforced: the engine never imports
// electron/react/DOM code, the renderer only reaches the engine through src/contract,
// and the contract imports nothing but zod.
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { checkImports, frontDoorProblem } from '../scripts/check-imports.mjs';
import { domainCycles, domainGraph } from '../scripts/domain-cycles.mjs';

const root = path.resolve(__dirname, '..');

/** A project tree of the given files in a temp dir (the caller removes it). */
function plant(files: Record<string, string>): string {
  const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-imports-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
    fs.writeFileSync(path.join(tmp, rel), text);
  }
  return tmp;
}

describe('import boundaries', () => {
  it('the project follows the layer rule', () => {
    expect(checkImports(root)).toEqual([]);
  });

  it('catches an engine file that imports electron or react, and a renderer file that imports the engine', () => {
    const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-imports-'));
    const write = (rel: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      fs.writeFileSync(path.join(tmp, rel), text);
    };
    write('src/catalog/a.ts', "import { app } from 'electron';\n");
    write('src/skills/b.ts', "import React from 'react';\nconst el: HTMLElement | null = null;\n");
    write('src/contract/c.ts', "import fs from 'node:fs';\nimport { z } from 'zod';\n");
    write('renderer/src/d.tsx', "import { scan } from '../../src/catalog/a';\nimport type { Api } from '../../src/contract/index';\n");
    write('renderer/src/e.ts', "const m = await import('../../src/service');\n");
    const problems = checkImports(tmp);
    fs.rmSync(tmp, { recursive: true, force: true });
    const text = problems.join('\n');
    expect(text).toContain('src/catalog/a.ts');
    expect(text).toContain('electron');
    expect(text).toContain('src/skills/b.ts');
    expect(text).toContain('HTMLElement');
    expect(text).toContain('src/contract/c.ts');
    expect(text).toContain('renderer/src/d.tsx');
    expect(text).toContain('renderer/src/e.ts');
    expect(problems.some((p) => p.includes('src/contract/index'))).toBe(false);
  });

  it('product code imports no test helper, and no test helper sits in the product tree', () => {
    const tmp = plant({
      'test/support/catalog.ts': 'export const sandbox = 1;\n',
      'src/catalog/scan.ts': "import { sandbox } from '../../test/support/catalog.js';\n",
      'main/window.ts': "const w = await import('../test/support/wait.js');\n",
      'renderer/src/pages/x.tsx': "import { startEngine } from '../test/engine';\n",
      'src/library/ops.ts': "import { makeZip } from './fixtures/zips.js';\n",
      'src/security/test-helpers.ts': "import { createService } from '../service.js';\n",
      // Allowed: tests (and test code) import their helpers; a comment is no import.
      'src/catalog/scan.test.ts': "import { sandbox } from '../../test/support/catalog.js';\n",
      'renderer/src/test/render-app.tsx': "import { startEngine } from './engine';\n",
      'src/skills/parse.ts': "// see '../../test/support/skills.js'\nexport const x = 1;\n",
    });
    const problems = checkImports(tmp);
    fs.rmSync(tmp, { recursive: true, force: true });
    expect(problems.map((p) => p.slice(0, p.indexOf(':'))).sort()).toEqual([
      'main/window.ts',
      'renderer/src/pages/x.tsx',
      'src/catalog/scan.ts',
      'src/library/ops.ts',
      'src/security/test-helpers.ts',
    ]);
    expect(problems.join('\n')).toContain('move it to test/support/');
  });

  it('front doors (main/, src/cli) reach a domain only through its index.ts', () => {
    // Past the public surface: refused, whatever the depth or the extension.
    expect(frontDoorProblem('src/cli/commands/x.ts', '../../workspaces/cleanup.js')).toContain('src/workspaces/index.ts');
    expect(frontDoorProblem('src/cli/main.ts', '../library/import')).toContain('src/library/index.ts');
    expect(frontDoorProblem('main/app-protocol.ts', '../src/server/static-files.ts')).toContain('src/server');
    // The public surface, the CLI's own files, top-level engine files, packages and tests: allowed.
    for (const [file, spec] of [
      ['main/ipc.ts', '../src/contract/index.js'],
      ['main/ipc.ts', '../src/contract/bridge.js'],
      ['src/cli/commands/x.ts', '../../workspaces/lean.js'],
      ['main/ipc.ts', '../src/service.js'],
      ['main/ipc.ts', './ipc-guard.js'],
      ['main/ipc.ts', 'electron'],
      ['src/cli/commands/x.ts', '../../workspaces/index.js'],
      ['src/cli/commands/x.ts', '../format.js'],
      ['src/cli/commands/x.ts', '../../errors.js'],
      ['main/preload.test.ts', '../src/contract/bridge.js'],
      ['src/catalog/x.ts', '../library/import.js'],
    ]) {
      expect(frontDoorProblem(file!, spec!), `${file} -> ${spec}`).toBeNull();
    }
    // And checkImports reports it from a scanned tree.
    const tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-doors-'));
    fs.mkdirSync(path.join(tmp, 'src', 'cli', 'commands'), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'src', 'cli', 'commands', 'y.ts'), "const m = await import('../../state/state-dirs.js');\n");
    const problems = checkImports(tmp);
    fs.rmSync(tmp, { recursive: true, force: true });
    expect(problems).toEqual([expect.stringContaining('src/cli/commands/y.ts')]);
  });
});

describe('imports between engine domains', () => {
  it('form no cycle in the project', () => {
    expect(domainCycles(root)).toEqual([]);
    // The graph is really read: the composition root reaches the domains, the domains reach the contract.
    const graph = domainGraph(root);
    expect([...(graph.get('service')?.keys() ?? [])]).toEqual(expect.arrayContaining(['catalog', 'library', 'editor', 'settings']));
    expect(graph.get('settings')?.has('agents')).toBe(true);
    expect(graph.get('agents')?.has('settings') ?? false).toBe(false);
    expect(graph.get('library')?.has('security') ?? false).toBe(false);
  });

  it('catches a cycle of two, a longer one and one through a top-level file, and names the files', () => {
    const tmp = plant({
      'src/agents/registry.ts': "import { x } from '../settings/settings.js';\n",
      'src/settings/settings.ts': "import { loadRegistry } from '../agents/registry.js';\n",
      'src/a/a.ts': "export * from '../b/b.js';\n",
      'src/b/b.ts': "const c = await import('../c/index.js');\n",
      'src/c/index.ts': "import type { A } from '../a/a.js';\n",
      'src/service.ts': "import { d } from './d/d.js';\n",
      'src/d/d.ts': "import { Service } from '../service.js';\n",
      // Not cycles: tests, test helpers, fixtures and comments may point anywhere.
      'src/e/e.ts': "import { f } from '../f/f.js';\n// import { e } from '../e/e.js' in f would be one\n",
      'src/f/f.test.ts': "import { e } from '../e/e.js';\n",
      'src/f/test-helpers.ts': "import { e } from '../e/e.js';\n",
      'src/f/fixtures/x.ts': "import { e } from '../../e/e.js';\n",
      'src/f/f.ts': "/* import { e } from '../e/e.js'; */ export const f = 1;\n",
    });
    const cycles = domainCycles(tmp);
    fs.rmSync(tmp, { recursive: true, force: true });
    expect(cycles.map((c) => c.domains)).toEqual([
      ['a', 'b', 'c'],
      ['agents', 'settings'],
      ['d', 'service'],
    ]);
    const text = cycles.flatMap((c) => c.edges).join('\n');
    expect(text).toContain('agents -> settings (agents/registry.ts)');
    expect(text).toContain('settings -> agents (settings/settings.ts)');
    expect(text).toContain('c -> a (c/index.ts)');
    expect(text).not.toMatch(/\bf\b -> e/);
  });
});
