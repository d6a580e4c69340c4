import { spawn } from 'node:child_process';

// A child (the user's git) run in a process group of its own, so that stopping it stops everything
// it started too: `git fetch` over HTTP runs `git remote-http`, which a kill of git alone leaves
// behind (re-parented to PID 1, still waiting on a silent server). On a time-out, an abort or too
// much output the whole group gets SIGKILL; groups still running when this process exits, or is
// interrupted or terminated, are killed on the way out. The group is a new session (setsid), so git has no terminal to prompt on either.

export interface DetachedOptions {
  cwd?: string;
  env: NodeJS.ProcessEnv;
  /** Stop the group after this long. */
  timeoutMs: number;
  /** Stop the group when this fires (a caller's deadline or cancel). */
  signal?: AbortSignal;
  /** Bytes of stdout or stderr kept before the group is stopped. */
  maxBuffer: number;
  /** Written to the child's standard input (closed after); without it stdin is closed at once. */
  input?: string;
}

export interface DetachedResult {
  stdout: string;
  stderr: string;
  code: number | null;
  /** Standard output as bytes (binary-safe: `cat-file --batch`). */
  bytes?: Buffer;
  /** Why SkillDock stopped it, when it did. */
  stopped?: 'timeout' | 'aborted' | 'overflow';
}

/** Process groups started here and still running. */
const live = new Set<number>();
let exitHook = false;

function killGroup(pid: number): void {
  try {
    // Windows has no process groups to signal: taskkill /T ends the process tree instead.
    if (process.platform === 'win32')
      spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true }).on('error', () => undefined);
    else process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function killLiveGroups(): void {
  for (const pid of live) killGroup(pid);
  live.clear();
}

/**
 * Ctrl-C or a kill of SkillDock while git runs: git is in a session of its own and would not get the
 * terminal's signal, so its group is killed here first. Listening only while a git is live; when no
 * one else listens, the signal is raised again so the process still ends the way it would have.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
function onStopSignal(sig: NodeJS.Signals): void {
  killLiveGroups();
  unwatchSignals();
  if (process.listenerCount(sig) === 0) process.kill(process.pid, sig);
}
function watchSignals(): void {
  for (const sig of STOP_SIGNALS) if (!process.listeners(sig).includes(onStopSignal)) process.on(sig, onStopSignal);
}
function unwatchSignals(): void {
  for (const sig of STOP_SIGNALS) process.off(sig, onStopSignal);
}

/** How long to wait for a killed group's leader to be reaped before reporting anyway. */
const REAP_MS = 2000;

/** Run `file args` detached; rejects only when it cannot start (ENOENT and the like). */
export function runDetached(file: string, args: string[], opts: DetachedOptions): Promise<DetachedResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return resolve({ stdout: '', stderr: '', code: null, stopped: 'aborted' });
    const child = spawn(file, args, {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    if (opts.input !== undefined) {
      child.stdin!.on('error', () => undefined); // a child that exits early closes its end: its exit code says why
      child.stdin!.end(opts.input);
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    let stopped: DetachedResult['stopped'];
    let settled = false;
    let reap: NodeJS.Timeout | undefined;
    const text = (b: Buffer[]) => Buffer.concat(b).toString('utf8');
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(reap);
      opts.signal?.removeEventListener('abort', onAbort);
      if (child.pid) live.delete(child.pid);
      if (!live.size) unwatchSignals();
      const bytes = Buffer.concat(out);
      resolve({ stdout: bytes.toString('utf8'), bytes, stderr: text(err), code, ...(stopped ? { stopped } : {}) });
    };
    const stop = (why: NonNullable<DetachedResult['stopped']>) => {
      if (settled || stopped) return;
      stopped = why;
      if (child.pid) killGroup(child.pid);
      // A grandchild that left the group could hold the pipes open: report once the leader is gone.
      reap = setTimeout(() => finish(null), REAP_MS);
    };
    const onAbort = () => stop('aborted');
    const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (child.pid) {
      live.add(child.pid);
      watchSignals();
      if (!exitHook) {
        exitHook = true;
        process.on('exit', killLiveGroups);
      }
    }
    child.stdout!.on('data', (b: Buffer) => {
      outBytes += b.length;
      if (outBytes > opts.maxBuffer) return stop('overflow');
      out.push(b);
    });
    child.stderr!.on('data', (b: Buffer) => {
      errBytes += b.length;
      if (errBytes > opts.maxBuffer) return stop('overflow');
      err.push(b);
    });
    child.on('error', (e) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(reap);
      opts.signal?.removeEventListener('abort', onAbort);
      if (child.pid) {
        live.delete(child.pid);
        killGroup(child.pid);
      }
      if (!live.size) unwatchSignals();
      reject(e);
    });
    child.on('exit', () => {
      // Once git is gone, nothing of its group has a reason to live on (a helper it left behind).
      if (child.pid && stopped) killGroup(child.pid);
    });
    child.on('close', (code) => finish(code));
  });
}
