// `npm start` (after `npm run build`): open the desktop app when an Electron binary can run here;
// otherwise say why in one line and serve the browser UI instead (`skilldock serve --open`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Path of a runnable Electron, or the reason there is none. */
export function findElectron(env = process.env) {
  if (!existsSync(path.join(root, 'dist', 'main', 'index.cjs')))
    return { reason: 'the desktop main process is not built (dist/main/index.cjs)' };
  if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY) return { reason: 'no display (DISPLAY/WAYLAND_DISPLAY unset)' };
  // From Electron 42 on, require('electron') fetches the binary on first use; give a real desktop
  // time to download it, and fail fast where the download cannot happen.
  const located = spawnSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 10 * 60 * 1000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const bin = located.status === 0 ? located.stdout.trim() : '';
  if (!bin || !existsSync(bin)) return { reason: 'no Electron binary could be downloaded or found' };
  const probe = spawnSync(bin, ['--version'], { env: { ...env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8', timeout: 30_000 });
  if (probe.status !== 0)
    return {
      reason: `the Electron binary does not run here (${(probe.stderr || probe.error?.message || `exit ${probe.status}`).trim().split('\n')[0]})`,
    };
  return { bin };
}

function relay(child) {
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const found = findElectron();
  if (found.bin) {
    const env = { ...process.env };
    delete env.ELECTRON_RUN_AS_NODE; // set, it would run main as plain Node
    relay(spawn(found.bin, [root], { stdio: 'inherit', env }));
  } else {
    console.log(`SkillDock: desktop app unavailable: ${found.reason}; starting the browser UI instead.`);
    relay(
      spawn(process.execPath, [path.join(root, 'bin', 'skilldock.js'), 'serve', '--open', ...process.argv.slice(2)], { stdio: 'inherit' }),
    );
  }
}
