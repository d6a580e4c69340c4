import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SkillAnalysis } from '../skills/index.js';
import type { AnalyzeFn } from './entries.js';

// Skill analysis is CPU work (YAML, lint, hashing) on top of small synchronous reads, so a cold
// scan of thousands of skills is spread over worker threads, one per core. Small scans stay on
// the calling thread: starting a worker costs more than analysing a few dozen skills.

const WORKER_FILE = 'analyze-worker.mjs';

/** The built worker script next to the running bundle, or null (running from source). */
export function findWorkerScript(): string | null {
  let here: string;
  try {
    here = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    return null;
  }
  for (const dir of [here, path.dirname(here)]) {
    const candidate = path.join(dir, WORKER_FILE);
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/**
 * Worker count: `SKILLDOCK_WORKERS` (0 disables), else one per core but one, at most 4: the
 * calling thread analyses too whenever every worker has a full queue, so every core works.
 * None on two cores or fewer: measured there (bench/catalog.mjs, 10,000 skills) one thread was
 * as fast or faster, a worker's start and JIT warm-up eating what the second core gave.
 */
export function workerCount(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SKILLDOCK_WORKERS;
  if (raw !== undefined && raw !== '' && Number.isFinite(Number(raw))) return Math.max(0, Math.min(16, Math.floor(Number(raw))));
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return cores <= 2 ? 0 : Math.min(4, cores - 1);
}

/** Jobs queued per worker before the caller analyses on its own thread instead. */
const QUEUE_DEPTH = 4;

type Pending = { resolve: (a: SkillAnalysis) => void; reject: (e: Error) => void };

export class AnalyzePool {
  private workers: Array<{ worker: Worker; busy: number }> = [];
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private broken = false;
  private closing = false;

  constructor(
    private script: string,
    private size: number,
  ) {}

  private start(): void {
    if (this.workers.length) return;
    for (let i = 0; i < this.size; i++) {
      const worker = new Worker(this.script);
      const slot = { worker, busy: 0 };
      worker.on('message', (m: { id: number; value?: SkillAnalysis; error?: string }) => {
        slot.busy--;
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.value!);
        if (this.pending.size === 0) for (const w of this.workers) w.worker.unref();
      });
      const fail = (err: Error) => {
        // A worker that failed to start or crashed fails its jobs and retires the pool: the
        // callers fall back to analysing on their own thread, nothing waits forever.
        this.broken = true;
        for (const [id, p] of this.pending) {
          this.pending.delete(id);
          p.reject(err);
        }
      };
      worker.on('error', fail);
      worker.on('exit', (code) => {
        if (!this.closing) fail(new Error(`analyse worker exited (${code})`));
      });
      this.workers.push(slot);
    }
  }

  /**
   * Analyse on the least busy worker; null when every worker already has a full queue (the caller
   * then analyses on its own thread, so it works too instead of waiting). Bodies are dropped
   * unless `keepBody`.
   */
  tryAnalyze(dir: string, opts: Parameters<AnalyzeFn>[1], keepBody = false): Promise<SkillAnalysis> | null {
    if (this.broken || this.closing) return null;
    try {
      this.start();
    } catch {
      this.broken = true;
      return null;
    }
    let slot = this.workers[0];
    for (const w of this.workers) if (w.busy < slot.busy) slot = w;
    if (slot.busy >= QUEUE_DEPTH) return null;
    slot.busy++;
    slot.worker.ref();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      slot.worker.postMessage({ id, dir, opts, keepBody });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const ws = this.workers.splice(0);
    await Promise.all(ws.map((w) => w.worker.terminate()));
  }
}
