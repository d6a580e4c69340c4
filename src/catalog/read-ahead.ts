import { createRequire } from 'node:module';
import type { MessagePort } from 'node:worker_threads';
import type { PlainWalk } from '../skills/walk.js';
import { findBuiltFile } from './built-file.js';
import type { EntryKind } from './scan.js';

// A first scan on two cores: one thread reads, the other thinks. A cold scan of a big root is
// about half system calls (a listing per folder, lstat, open, fstat, read, close per file) and half
// JavaScript (parse, lint, entries, the index); worker threads that each do both were measured no
// faster on two cores (analyze-pool.ts). Here a reading thread (read-worker.ts) makes the calls
// ahead of the calling thread, a chunk of children at a time, and sends what they gave; the calling
// thread analyses each child from it without a system call. Both take chunks from one counter: the
// calling thread reads a chunk itself whenever nothing is waiting (while the reader starts, or if
// it is slow), so it never waits for the reader but at the very end, and then boundedly.

/** Children per chunk. */
export const CHUNK = 32;
/** Chunks the reader may have sent and the calling thread not yet taken. */
export const AHEAD = 16;
/** Slots of the shared counter. */
export const SLOT = { next: 0, sent: 1, taken: 2, stop: 3 } as const;

/** One child as the reader read it: its stat rows (stat-rows.ts) and its walk. */
export interface PreRead {
  rels: string[];
  /** Where its six numbers per row start in its chunk's numbers. */
  at: number;
  walk: PlainWalk;
}

/**
 * A child as read, with its chunk's text bytes (see PlainWalk): valid during the call it is handed
 * to only, as the buffer then goes back to the reader to be filled again.
 */
export interface ReadChild {
  read: PreRead;
  text: Buffer;
  /** The chunk's stat numbers (kept: the child's rows are a view of them). */
  nums: Float64Array;
}

/** What the reader is given (with the port it answers on). */
export interface ReadJob {
  /** `catalog`: stat rows, listings, reads and hashes; `lint`: listings and texts only (what lint reads). */
  task: 'catalog' | 'lint';
  rootPath: string;
  names: string[];
  kinds: Array<EntryKind | undefined>;
  counter: SharedArrayBuffer;
  resolutionMs: number;
}

const READER_FILE = 'read-worker.cjs';
/** How long the end of a scan waits for a chunk the reader took, with no news from it, before reading it here. */
const STALL_MS = 10_000;

/** The built reader next to the running bundle, or null (running from source). */
export function findReaderScript(): string | null {
  return findBuiltFile(READER_FILE);
}

/**
 * Whether a scan reads ahead on a thread of its own: on two cores or fewer (where no scan workers
 * run), unless `SKILLDOCK_WORKERS=0` (no threads at all) or `SKILLDOCK_READ_AHEAD=0`.
 */
export function readAheadWanted(workers: number, env: NodeJS.ProcessEnv = process.env): boolean {
  return workers === 0 && env.SKILLDOCK_WORKERS !== '0' && env.SKILLDOCK_READ_AHEAD !== '0';
}

type Threads = typeof import('node:worker_threads');
/** Node 16+ has it; the TypeScript lib this project targets does not name it yet. */
interface AtomicsWaitAsync {
  waitAsync(
    a: Int32Array,
    index: number,
    value: number,
    timeoutMs: number,
  ): { async: false; value: string } | { async: true; value: Promise<string> };
}

export class ReadAhead {
  private broken = false;

  /** `stallMs`: how long the end of a scan waits, with no news from the reader, before reading what it took. */
  constructor(
    private script: string,
    private stallMs = STALL_MS,
  ) {}

  /**
   * `local(i, pre)` for each child, in the order of `names`: `pre` is what the reader read of it
   * (undefined: `local` reads the child itself).
   */
  async map<R>(job: Omit<ReadJob, 'counter'>, local: (i: number, pre?: ReadChild) => Promise<R>): Promise<R[]> {
    const n = job.names.length;
    const out = new Array<R>(n);
    const done = new Uint8Array(n);
    const counter = new Int32Array(new SharedArrayBuffer(16));
    const started = this.broken ? null : this.start(job, counter);
    let gone = false;
    started?.worker.once('exit', () => (gone = true));
    let byReader = 0;
    const take = async (start: number, json: string, bytes: Uint8Array, nums: Float64Array): Promise<void> => {
      const reads = JSON.parse(json) as Array<PreRead | null>;
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      for (let k = 0; k < reads.length; k++) {
        const read = reads[k];
        if (read) byReader++;
        out[start + k] = await local(start + k, read ? { read, text, nums } : undefined);
        done[start + k] = 1;
      }
      // The texts are strings of their own now: the buffer goes back to be filled again.
      const ab = bytes.buffer as ArrayBuffer;
      if (ab.byteLength) started!.back.postMessage(ab, [ab]);
      Atomics.add(counter, SLOT.taken, 1);
      Atomics.notify(counter, SLOT.taken);
    };
    // What the reader has sent, taken without a turn of the event loop (the analysis never yields to it).
    const drain = async (): Promise<boolean> => {
      if (!started) return false;
      let any = false;
      for (let m = started.threads.receiveMessageOnPort(started.port); m; m = started.threads.receiveMessageOnPort(started.port)) {
        const { start, json, text, nums } = m.message as { start: number; json: string; text: Uint8Array; nums: Float64Array };
        await take(start, json, text, nums);
        any = true;
      }
      return any;
    };
    try {
      for (;;) {
        if (await drain()) continue;
        const start = Atomics.add(counter, SLOT.next, CHUNK);
        if (start >= n) break;
        for (let i = start; i < Math.min(n, start + CHUNK); i++) {
          out[i] = await local(i);
          done[i] = 1;
        }
      }
      // The chunks the reader took and has not sent yet: waited for, boundedly. Between the waits
      // the event loop runs, so a reader that ended or failed says so ('exit').
      let last = Date.now();
      while (started && done.indexOf(0) !== -1) {
        if (await drain()) {
          last = Date.now();
          continue;
        }
        if (gone || Date.now() - last > this.stallMs) break;
        const w = (Atomics as unknown as AtomicsWaitAsync).waitAsync(counter, SLOT.sent, Atomics.load(counter, SLOT.sent), 50);
        if (w.async) await w.value;
        else await new Promise<void>((r) => setImmediate(r));
      }
    } finally {
      Atomics.store(counter, SLOT.stop, 1);
      Atomics.notify(counter, SLOT.taken);
      if (started) {
        started.port.close();
        started.back.close();
        started.worker.unref();
      }
    }
    // Whatever the reader took and never sent (it failed, or stalled) is read here.
    let missed = 0;
    for (let i = 0; i < n; i++) {
      if (done[i]) continue;
      missed++;
      out[i] = await local(i);
    }
    if (process.env.SKILLDOCK_TRACE_READ_AHEAD) {
      process.stderr.write(
        `skilldock: read ahead: ${byReader} of ${n} children read by the reader thread${missed ? `, ${missed} it took read here` : ''}\n`,
      );
    }
    return out;
  }

  private start(
    job: Omit<ReadJob, 'counter'>,
    counter: Int32Array,
  ): { threads: Threads; worker: import('node:worker_threads').Worker; port: MessagePort; back: MessagePort } | null {
    try {
      // Loaded with the first scan big enough: a listing from the index never starts a thread.
      const threads = createRequire(import.meta.url)('node:worker_threads') as Threads;
      const { port1, port2 } = new threads.MessageChannel();
      const back = new threads.MessageChannel();
      const data: ReadJob & { port: MessagePort; back: MessagePort } = {
        ...job,
        counter: counter.buffer as SharedArrayBuffer,
        port: port2,
        back: back.port2,
      };
      const worker = new threads.Worker(this.script, { workerData: data, transferList: [port2, back.port2] });
      worker.on('error', () => (this.broken = true)); // this scan reads what it took; later ones read alone
      return { threads, worker, port: port1, back: back.port1 };
    } catch {
      this.broken = true;
      return null;
    }
  }
}
