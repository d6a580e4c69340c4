import { fail } from '../errors.js';

// The limits every skill source is held to, whatever brings it (a git repository or an archive
// URL): the reference `skills` CLI's archive limits (25 MiB unpacked, 1,000 files), and how long
// SkillDock waits on a remote. Time-outs can be shortened from the environment (tests, slow CI
// links are the other way round): read at each call, so a test can set them before it runs.

export const SOURCE_LIMITS = {
  /** Bytes of all files of one source, as checked out or unpacked. */
  maxBytes: 25 * 1024 * 1024,
  /** Files (and links) in one source. */
  maxFiles: 1000,
};

/** Remote rounds (fetches) at the same time when several sources are read for one request. */
export const SOURCES_PARALLEL = 4;

function fromEnv(name: string, fallback: number): number {
  const n = Number(process.env[name]);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** One git call that talks to a remote (`fetch`, `ls-remote`). */
export function gitTimeoutMs(): number {
  return fromEnv('SKILLDOCK_GIT_TIMEOUT_MS', 120_000);
}

/** `ls-remote` during a check: one round, so a shorter wait. */
export function lsRemoteTimeoutMs(): number {
  return Math.min(gitTimeoutMs(), 60_000);
}

/** Everything one request fetches from its sources together (an assistant file's skills). */
export function sourcesDeadlineMs(): number {
  return fromEnv('SKILLDOCK_SOURCES_DEADLINE_MS', 10 * 60_000);
}

export const mib = (n: number): number => Math.round((n / 1048576) * 10) / 10;

/** One deadline for everything a request fetches: its signal stops git and downloads. */
export interface Deadline {
  signal: AbortSignal;
  /** Clear the timer (call when the request ends). */
  done(): void;
  /** `err` as the deadline's own message when the deadline stopped it, else unchanged. */
  explain(err: unknown, source: string): unknown;
}

export function startDeadline(ms = sourcesDeadlineMs()): Deadline {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), ms);
  return {
    signal: ctl.signal,
    done: () => clearTimeout(timer),
    explain: (err, source) => (ctl.signal.aborted ? fail('io', 'sources.deadline', { source, seconds: Math.round(ms / 1000) }) : err),
  };
}
