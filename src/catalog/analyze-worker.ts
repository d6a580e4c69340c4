import { parentPort } from 'node:worker_threads';
import { loadRegistry } from '../agents/registry.js';
import { RegistrySchema } from '../agents/registry-schema.js';
import { provideSchema } from '../store/lazy-schema.js';
import { defaultAnalyze } from './entries.js';
import { runChild, type TaskEnv } from './child-tasks.js';
import { CHUNK, type JobMessage } from './analyze-pool.js';

// Worker side of the scan pool: takes children of a big root from the shared counter, runs the
// same per-child task as the calling thread and sends the results back a chunk at a time. Built
// to dist/analyze-worker.mjs next to the CLI bundle; the catalog does everything on its own
// thread when this file is not there (tests and dev runs from source).

// A worker validates the registry itself (it shares no memory with the thread that started it).
provideSchema('agent-registry', RegistrySchema);

const envs = new Map<string, TaskEnv>();

function envFor(resourcesDir: string): TaskEnv {
  let env = envs.get(resourcesDir);
  if (!env) {
    env = { resourcesDir, analyze: defaultAnalyze, registry: loadRegistry(resourcesDir) };
    envs.set(resourcesDir, env);
  }
  return env;
}

async function run(m: JobMessage): Promise<void> {
  const env = envFor(m.resourcesDir);
  const counter = new Int32Array(m.counter);
  const n = m.names.length;
  for (;;) {
    const start = Atomics.add(counter, 0, CHUNK);
    if (start >= n) break;
    const end = Math.min(n, start + CHUNK);
    const values: unknown[] = [];
    for (let i = start; i < end; i++) values.push(await runChild(m.job, m.names[i], m.kinds[i], env));
    // As JSON text: one string crosses the thread boundary, and JSON.parse on the calling thread
    // costs a fraction of deserialising the same records from a structured clone.
    parentPort!.postMessage({ jobId: m.jobId, start, json: JSON.stringify(values) });
  }
}

parentPort?.on('message', (m: JobMessage) => {
  run(m).then(
    () => parentPort!.postMessage({ jobId: m.jobId, done: true }),
    (err: unknown) => parentPort!.postMessage({ jobId: m.jobId, error: err instanceof Error ? err.message : String(err) }),
  );
});
