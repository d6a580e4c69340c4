import { spawn } from 'node:child_process';

// Run an agent CLI once, without a shell, in a process group of its own and with no terminal:
// stdin is closed, and `detached` makes it a session leader (setsid), so a CLI that opens /dev/tty
// to ask for a login finds none. Past `timeoutMs` the whole group is killed, and it is killed again
// after the CLI exits, so nothing it started is left running.

export interface RunResult {
  status: number | null;
  /** Killed at the time-out. */
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

const KEEP = 200_000;

/** Kill every process of the group led by `pid` (gone already: nothing to do). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL');
  } catch {
    // ESRCH: the group has ended
  }
}

/** Spawn `bin args`; resolves when it exits or at the time-out (never rejects but for a spawn error). */
export function runGrouped(bin: string, args: string[], o: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout = (stdout + d).slice(-KEEP)));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-KEEP)));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, o.timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    // Whatever it left behind in its group (a helper, a language server) goes with it; a helper
    // that still holds the pipes would otherwise delay 'close'.
    child.on('exit', () => killGroup(child.pid));
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, timedOut, stdout, stderr });
    });
  });
}
