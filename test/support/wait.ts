// The one way tests wait for something asynchronous (a file event, a child process, a port): poll
// a condition, bounded both in tries and in time, and fail naming what never happened. Tests wait
// on a condition, never on a bare sleep, except `sleep` for a deliberate pause that is no wait for
// anything: a quiet period (to show that something does NOT happen) or work made slow on purpose.
// test/support/wait.test.ts fails a test file that sleeps any other way (test/support/sleep-scan.ts).

export interface WaitOptions {
  /** Give up after this long (default 5 s; at most 120 s: a test that needs longer is a hang). */
  timeoutMs?: number;
  /** Pause between two looks (default 20 ms). */
  intervalMs?: number;
  /** What is awaited, for the error: a phrase, or a function called at the timeout (e.g. events seen). */
  what?: string | (() => string);
}

export const MAX_WAIT_MS = 120_000;

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Look at `cond` until it holds; true if it did, false if the time or the tries ran out. The number
 * of looks is bounded too (timeout / interval + 1), so a clock that jumps cannot make it spin.
 */
export async function poll(cond: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<boolean> {
  const timeoutMs = options.timeoutMs ?? 5000;
  const intervalMs = Math.max(1, options.intervalMs ?? 20);
  if (!(timeoutMs > 0 && timeoutMs <= MAX_WAIT_MS)) throw new RangeError(`wait timeout must be 1..${MAX_WAIT_MS} ms, not ${timeoutMs}`);
  const end = Date.now() + timeoutMs;
  const tries = Math.ceil(timeoutMs / intervalMs) + 1;
  for (let i = 0; i < tries; i++) {
    if (await cond()) return true;
    if (Date.now() >= end) break;
    await sleep(Math.min(intervalMs, Math.max(1, end - Date.now())));
  }
  return Boolean(await cond());
}

/** Wait until `cond` holds, or throw `timed out after N ms waiting for <what>`. */
export async function waitFor(cond: () => boolean | Promise<boolean>, options: WaitOptions = {}): Promise<void> {
  if (await poll(cond, options)) return;
  const what = typeof options.what === 'function' ? options.what() : (options.what ?? 'a condition');
  throw new Error(`timed out after ${options.timeoutMs ?? 5000} ms waiting for ${what}`);
}
