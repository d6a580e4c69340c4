import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { PINS, STATUS_FILE, binPath, installDir, installedVersion, type InstallStatus } from './pins.js';

// Install each pinned agent CLI once (npm, into its own prefix in the cache). A failure is recorded
// with its reason so the agent's tests fail loudly with it; nothing is skipped.
export default function setup(): void {
  const status: InstallStatus = {};
  for (const pin of PINS) {
    const dir = installDir(pin);
    if (installedVersion(pin) !== pin.version || !fs.existsSync(binPath(pin))) {
      fs.mkdirSync(dir, { recursive: true });
      process.stdout.write(`installing ${pin.pkg}@${pin.version} into ${dir} ...\n`);
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
      const r = spawnSync(npm, ['install', '--prefix', dir, '--no-audit', '--no-fund', '--loglevel=error', `${pin.pkg}@${pin.version}`], {
        encoding: 'utf8',
        timeout: 15 * 60_000,
      });
      if (r.status !== 0) {
        const why = r.error ? r.error.message : (r.stderr || r.stdout || `npm exited ${r.status}`).trim().split('\n').slice(-8).join('\n');
        status[pin.id] = { ok: false, reason: `npm install ${pin.pkg}@${pin.version} failed: ${why}` };
        continue;
      }
    }
    const v = installedVersion(pin);
    status[pin.id] =
      v === pin.version && fs.existsSync(binPath(pin))
        ? { ok: true, bin: binPath(pin) }
        : { ok: false, reason: `after install, ${pin.pkg} is ${v ?? 'missing'} (want ${pin.version}) or ${binPath(pin)} is absent` };
  }
  fs.mkdirSync(path.dirname(STATUS_FILE), { recursive: true });
  fs.writeFileSync(STATUS_FILE, JSON.stringify(status, null, 2));
}
