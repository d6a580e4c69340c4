import { afterAll, beforeAll } from 'vitest';
import { poll } from './wait.js';

// Every test file must leave the process as it found it: no timer still pending, no socket, server
// or child process still open once its last test and its own afterAll hooks are done (as VS Code's
// ensureNoDisposablesAreLeakedInTestSuite does for disposables). A leaked timer fires after the
// file's worker is gone, so an error it throws is never seen; a leaked server or child outlives
// the test that made it. Vitest loads this file first in every test file (vitest.config.ts
// setupFiles), so its afterAll runs last, after the file's own cleanup.
//
// What is open is read from Node's own list of what keeps the event loop alive
// (process.getActiveResourcesInfo(): one type name per timer, socket, server, child, pending fs
// call). The list at the file's start is the baseline (the worker's own channel to Vitest, stdio).
// Things being closed (a socket ending, a killed child not yet reaped) are waited for, 2 s at most.

/** Node's names for what a test can leave open, and the words the failure uses for them. */
const KINDS: Record<string, string> = {
  Timeout: 'timer (setTimeout/setInterval)',
  Immediate: 'setImmediate',
  TCPWrap: 'TCP socket',
  TCPServerWrap: 'TCP server',
  PipeWrap: 'pipe (a child process stdio or a local socket)',
  PipeServerWrap: 'local socket server',
  ProcessWrap: 'child process',
  UDPWrap: 'UDP socket',
  FSEventWrap: 'file watcher (fs.watch)',
  StatWatcher: 'file watcher (fs.watchFile)',
  SignalWrap: 'signal handler',
  TTYWrap: 'terminal stream',
  FSReqCallback: 'file system call in flight',
  FileHandle: 'open file handle',
  FSReqPromise: 'file system call in flight',
  GetAddrInfoReqWrap: 'DNS lookup',
  TLSWrap: 'TLS socket',
  HTTPParser: 'HTTP parser',
  Worker: 'worker thread',
  MessagePort: 'message port',
};

/** The grace for things being closed, and how often to look. */
export const LEAK_GRACE_MS = 2000;

/** Counted by Node's list; timers are tracked one by one instead (below). */
const UNTRACKED = new Set(['Timeout', 'Immediate']);

function count(): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of process.getActiveResourcesInfo()) if (!UNTRACKED.has(t)) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

// Timers come and go inside Vitest itself (a call to the main process waits with one), so counting
// them says nothing; instead every timer set through the global setTimeout and setInterval is kept
// with where it was set (Vitest took its own timer functions before this file ran). One set by
// the project's code (a test, a helper, the engine) and still due after the last test is a leak
// at once: waiting would only let it fire where no test is left to see what it does. One set by a
// library (react-transition-group leaves its transition timers running on unmount, their
// callbacks emptied) is given the grace, like a closing socket: it fires while the file's worker
// still reports errors.
interface Timer {
  hasRef(): boolean;
  _destroyed?: boolean;
}
const timers = new Map<Timer, { where: string; library: boolean }>();

function tracked<F extends (...args: never[]) => unknown>(real: F): F {
  const wrapped = function (this: unknown, ...args: Parameters<F>) {
    const t = real.apply(this, args) as unknown;
    if (t && typeof t === 'object' && 'hasRef' in t) {
      const frames = (new Error().stack ?? '').split('\n').slice(2, 5);
      timers.set(t as Timer, { where: frames.join('\n'), library: /[\\/]node_modules[\\/]/.test(frames[0] ?? '') });
    }
    return t;
  };
  // Keeps what hangs off the real one (util.promisify's custom form).
  return Object.defineProperties(wrapped, Object.getOwnPropertyDescriptors(real)) as unknown as F;
}
globalThis.setTimeout = tracked(globalThis.setTimeout);
globalThis.setInterval = tracked(globalThis.setInterval);

/** Timers still due to fire (Node marks one `_destroyed` once it fired or was cleared). */
function pendingTimers(library: boolean): string[] {
  const out: string[] = [];
  for (const [t, at] of timers) {
    if (t._destroyed) timers.delete(t);
    else if (t.hasRef() && at.library === library) out.push(`a timer (setTimeout/setInterval) set\n${at.where}`);
  }
  return out;
}

/** What is open now beyond the baseline: `2 × TCP socket (TCPWrap)`, … */
export function leftOpen(baseline: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [type, n] of count()) {
    const extra = n - (baseline.get(type) ?? 0);
    if (extra > 0) out.push(`${extra} × ${KINDS[type] ?? type} (${type})`);
  }
  return out.sort();
}

let baseline = new Map<string, number>();

beforeAll(() => {
  baseline = count();
  timers.clear();
});

afterAll(async () => {
  const due = pendingTimers(false);
  const closed = await poll(() => leftOpen(baseline).length === 0 && pendingTimers(true).length === 0, {
    timeoutMs: LEAK_GRACE_MS,
    intervalMs: 20,
  });
  const open = [...(closed ? [] : [...leftOpen(baseline), ...pendingTimers(true)]), ...due];
  if (open.length === 0) return;
  throw new Error(
    `this test file left open after its last test (what was closing was given ${LEAK_GRACE_MS} ms): ${open.join('; ')}. ` +
      'Stop what the tests start (clear timers, close servers and sockets, kill and await child processes) in the test or an afterEach/afterAll.',
  );
}, LEAK_GRACE_MS + 5000);
