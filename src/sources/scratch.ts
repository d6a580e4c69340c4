import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

// The scratch folders sources are checked out and unpacked in, `<home>/staging/sources/<pid>-…`.
// The process that made one removes it when done; one whose process is gone (killed, interrupted
// by Ctrl-C while git was fetching) is removed by the next process that makes one. A folder of a
// process still running (the app and the CLI at once) is never touched.

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Remove the scratch folders under `root` whose process has ended. */
function sweep(root: string): void {
  for (const name of fs.readdirSync(root)) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || alive(pid)) continue;
    fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
}

/** A new private scratch folder under `<home>/staging/sources/`; the caller removes it. */
export function makeScratch(home: string): string {
  const root = path.join(home, 'staging', 'sources');
  fs.mkdirSync(root, { recursive: true });
  sweep(root);
  return fs.mkdtempSync(path.join(root, `${process.pid}-${randomBytes(3).toString('hex')}-`));
}
