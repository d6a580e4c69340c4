import { spawnSync } from 'node:child_process';
import path from 'node:path';

// Component tests run the built CLI (`bin/skilldock.js` loads dist/cli.mjs): build it from the
// sources first, so a test never judges a stale bundle. esbuild makes this about a second.
export default function setup(): void {
  const root = path.resolve(__dirname, '..');
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-engine.mjs')], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`building the engine for the component tests failed:\n${r.stderr}${r.stdout}`);
}
