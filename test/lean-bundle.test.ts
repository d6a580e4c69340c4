import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

// The lean start of `list` and `policy check-write` (src/cli/lean.ts) loads no zod: the contract's
// schemas are ~0.8 MB of code whose compile and set-up cost more than the rest of a small `list`.
// One value import of the contract's index (e.g. `formatMessage` from contract/index.js instead of
// contract/messages-text.js) drags it back in; this follows every import, dynamic ones too.

const root = path.resolve(__dirname, '..');

async function inputs(entry: string): Promise<string[]> {
  const r = await build({
    entryPoints: [path.join(root, entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    write: false,
    metafile: true,
    outdir: path.join(root, 'dist', '.lean-check'),
    logLevel: 'silent',
    absWorkingDir: root,
  });
  return Object.keys(r.metafile.inputs);
}

describe('lean CLI commands', () => {
  for (const entry of [
    'src/cli/commands/list.ts',
    'src/cli/commands/policy.ts',
    'src/cli/lean.ts',
    'src/cli/hook-entry.ts',
    'src/catalog/index.ts',
  ]) {
    it(`${entry} reaches no zod`, async () => {
      const all = await inputs(entry);
      expect(all.length).toBeGreaterThan(3);
      expect(all.filter((f) => /node_modules\/zod\//.test(f))).toEqual([]);
      expect(all.filter((f) => f.endsWith('src/contract/index.ts'))).toEqual([]);
    });
  }
});
