// `npm run package`: build, then the desktop packages for this machine's platform with
// electron-builder (into release/, targets in electron-builder.yml). Arguments go to
// electron-builder (`npm run package -- --linux dir`). SKILLDOCK_ELECTRON_DIST=<dir> packs with a
// local Electron dist instead of downloading one (offline: test/packaging.test.ts passes a
// stand-in). --no-build skips the build when dist/ is fresh.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const noBuild = args.includes('--no-build');
const builderArgs = args.filter((a) => a !== '--no-build');

function run(cmd, argv, env = process.env) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: 'inherit', env });
  if (r.error) {
    console.error(`package: could not run ${cmd}: ${r.error.message}`);
    process.exit(1);
  }
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!noBuild) run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build']);
const dist = process.env.SKILLDOCK_ELECTRON_DIST;
const bin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder');
run(bin, ['--config', path.join(root, 'electron-builder.yml'), ...(dist ? [`-c.electronDist=${path.resolve(dist)}`] : []), ...builderArgs]);
