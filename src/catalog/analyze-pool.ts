import os from 'node:os';
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { EntryKind } from './scan.js';
import type { ChildJob } from './child-tasks.js';
import { findBuiltFile } from './built-file.js';

// A cold scan of a big root is mostly syscalls (a readdir per folder, open/read/close per file)
// plus YAML, lint and hashing: it is spread over worker threads and the calling thread, which
// all take the next few children from one shared counter until none are left. No thread waits
// for another, a slow start of a worker only means it takes fewer children, and the results keep
// the root's order whoever computed them.

const WORKER_FILE = 'analyze-worker.mjs';

/** Children taken from the shared counter at a time. */
export const CHUNK = 32;

/** The built worker script next to the running bundle, or null (running from source). */
export function findWorkerScript(): string | null {
  return findBuiltFile(WORKER_FILE);
}

/**
 * Worker count: `SKILLDOCK_WORKERS` (0 disables), else one per core but one (the calling thread
 * is the last core), at most 4; none on two cores or fewer. Measured on a two-vCPU VM
 * (bench/catalog.mjs, 10,000 skills): a scan is syscall-bound, two threads each ran ~1.4x slower
 * per skill than one alone, and a worker takes ~90 ms to boot, so one thread was faster.
 */
export function workerCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SKILLDOCK_WORKERS;
  if (raw !== undefined && raw !== '' && Number.isFinite(Number(raw))) return Math.max(0, Math.min(16, Math.floor(Number(raw))));
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return cores <= 2 ? 0 : Math.min(4, cores - 1);
}

/** From a worker: results for children [start, start + values.length), or the end of its share. */
type Reply = { jobId: number; start: number; json: string } | { jobId: number; done: true } | { jobId: number; error: string };

/** Sent to a worker: a job, the children's names and listing types, and the shared counter. */
export interface JobMessage {
  jobId: number;
  job: ChildJob;
  resourcesDir: string;
  names: string[];
  kinds: Array<EntryKind | undefined>;
  counter: SharedArrayBuffer;
}

type Listener = (m: Reply) => void;

export class ScanPool {
  private workers: Worker[] = [];
  private listeners = new Map<number, Set<Listener>>();
  private nextId = 1;
  private broken = false;
  private closing = false;

  constructor(
    private script: string,
    private size: number,
  ) {}

  private start(): Worker[] {
    if (this.broken || this.closing) return [];
    if (this.workers.length) return this.workers;
    try {
      // Loaded with the first worker: most starts (a listing from the index, two cores) start
      // none, and node:worker_threads costs a few ms of a CLI start.
      const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
      for (let i = 0; i < this.size; i++) {
        const worker = new threads.Worker(this.script);
        worker.unref();
        worker.on('message', (m: Reply) => {
          for (const l of this.listeners.get(m.jobId) ?? []) l(m);
        });
        const fail = (err: Error) => {
          // A worker that failed to start or crashed retires the pool: whatever it had taken is
          // redone on the calling thread, nothing waits forever.
          this.broken = true;
          for (const set of this.listeners.values()) for (const l of set) l({ jobId: -1, error: err.message });
        };
        worker.on('error', fail);
        worker.on('exit', (code) => {
          if (!this.closing) fail(new Error(`scan worker exited (${code})`));
        });
        this.workers.push(worker);
      }
    } catch {
      this.broken = true;
      return [];
    }
    return this.workers;
  }

  /**
   * Every child of `job` through `local` (this thread) or a worker running the same task. Results
   * in the order of `names`. Children a failed worker had taken are redone here.
   */
  async map<R>(
    job: ChildJob,
    resourcesDir: string,
    names: string[],
    kinds: Array<EntryKind | undefined>,
    local: (i: number) => Promise<R>,
  ): Promise<R[]> {
    const n = names.length;
    const out = new Array<R>(n);
    const done = new Uint8Array(n);
    const counterBuf = new SharedArrayBuffer(4);
    const counter = new Int32Array(counterBuf);
    const workers = this.start();
    const jobId = this.nextId++;
    const set = new Set<Listener>();
    this.listeners.set(jobId, set);
    let pending = workers.length;
    let allDone: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      allDone = resolve;
      if (!pending) resolve();
    });
    set.add((m) => {
      if ('json' in m) {
        const values = JSON.parse(m.json) as R[];
        for (let k = 0; k < values.length; k++) {
          out[m.start + k] = values[k];
          done[m.start + k] = 1;
        }
      } else if (--pending <= 0) allDone(); // `done`, or an error (a failed worker never sends more)
    });
    const message: JobMessage = { jobId, job, resourcesDir, names, kinds, counter: counterBuf };
    for (const w of workers) {
      w.ref();
      w.postMessage(message);
    }
    try {
      for (;;) {
        const start = Atomics.add(counter, 0, CHUNK);
        if (start >= n) break;
        const end = Math.min(n, start + CHUNK);
        for (let i = start; i < end; i++) {
          out[i] = await local(i);
          done[i] = 1;
        }
        // Let the workers' replies in between chunks: reading them is this thread's work too, and
        // doing it as they come keeps the end of the scan from waiting on one big backlog.
        if (workers.length) await new Promise<void>((r) => setImmediate(r));
      }
      await finished;
    } finally {
      this.listeners.delete(jobId);
      for (const w of workers) w.unref();
    }
    for (let i = 0; i < n; i++) if (!done[i]) out[i] = await local(i);
    return out;
  }

  async close(): Promise<void> {
    this.closing = true;
    const ws = this.workers.splice(0);
    await Promise.all(ws.map((w) => w.terminate()));
  }
}
