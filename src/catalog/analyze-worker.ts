import { parentPort } from 'node:worker_threads';
import { analyzeSkill } from '../skills/index.js';

// Worker side of the analyse pool: analyses skill folders for the catalog on another core. Built
// to dist/analyze-worker.mjs next to the CLI bundle; the catalog falls back to its own thread
// when this file is not there (tests and dev runs from source).

interface Job {
  id: number;
  dir: string;
  opts: { resourcesDir: string; dirName?: string; digest?: boolean };
  keepBody: boolean;
}

parentPort?.on('message', (job: Job) => {
  analyzeSkill(job.dir, job.opts).then(
    (a) => {
      // The catalog never shows bodies: not cloning them back saves most of the message size.
      if (!job.keepBody) a.body = '';
      parentPort!.postMessage({ id: job.id, value: a });
    },
    (err: unknown) => parentPort!.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
