// Tests guard against cost that grows faster than the input (a regex that backtracks, a parser that
// rescans), never against a wall-clock number: on a loaded CI machine any fixed bound can fail a
// correct build. So the work is timed against a floor measured here, now, under the same load: the
// same size of input through a path known to be linear. Each is the fastest of a few runs, the one
// least disturbed by other processes. Speed itself is measured in `npm run bench`.

/** The fastest of `runs` runs of `fn`, in milliseconds. */
export function fastestMs(fn: () => unknown, runs = 3): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

/**
 * `work` costs at most `factor` times `floor` (plus `slackMs`, for a floor too small to time well).
 * A super-linear cost on a large input is hundreds of times its floor; a loaded machine slows both.
 */
export function withinFloor(work: () => unknown, floor: () => unknown, factor: number, slackMs = 20): { ok: boolean; said: string } {
  const f = fastestMs(floor);
  const w = fastestMs(work);
  return {
    ok: w <= factor * f + slackMs,
    said: `${w.toFixed(1)} ms against a floor of ${f.toFixed(1)} ms (at most ${factor}x + ${slackMs} ms)`,
  };
}
