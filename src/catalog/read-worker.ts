import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { TextBytes, childPath, hasSkillFile, listDir, plainWalk, walkSkill } from '../skills/walk.js';
import { isLinkMode } from '../skills/stat-numbers.js';
import { rowSink, statRows } from './stat-rows.js';
import { AHEAD, CHUNK, SLOT, type PreRead, type ReadJob } from './read-ahead.js';

// The reading thread of a first scan (see read-ahead.ts): for the plain folders among a root's
// children it makes the calls the calling thread would make (lstat of the folder, its listing, and
// for a skill the walk: listings, fstat, reads, hashes), in the same order, and sends what they
// gave. It parses nothing and decides nothing: a child that is not a plain folder holding a skill
// file is left to the calling thread. Built to dist/read-worker.cjs next to the CLI bundle.

const job = workerData as ReadJob & { port: MessagePort; back: MessagePort };
const counter = new Int32Array(job.counter);

/** What the calling thread would read of one child, or null to leave it to that thread. */
function readChild(name: string, bytes: TextBytes, numbers: number[]): PreRead | null {
  const dir = childPath(job.rootPath, name);
  if (job.task === 'lint') {
    // What lintChild reads: the listing, then the walk of a skill without hashes or stat rows.
    const listing = listDir(dir);
    if (!listing || !hasSkillFile(listing)) return null;
    const walked = walkSkill(dir, { readSkillFile: true, readMarkdown: true, listing, textBytes: bytes });
    return { rels: [], at: numbers.length, walk: plainWalk(walked) };
  }
  // Stats first, then contents, as evaluateChild takes them.
  const rows = statRows(dir, 0, 0, job.resolutionMs);
  if (!rows || isLinkMode(rows.nums[5])) return null; // gone, or swapped for a link since the listing
  const listing = listDir(dir);
  if (!listing || !hasSkillFile(listing)) return null;
  const walked = walkSkill(dir, {
    hash: true,
    readSkillFile: true,
    readMarkdown: true,
    listing,
    onStat: rowSink(rows, job.resolutionMs),
    textBytes: bytes,
  });
  const at = numbers.length;
  for (const v of rows.nums) numbers.push(v);
  return { rels: rows.rels, at, walk: plainWalk(walked) };
}

const n = job.names.length;
// The calling thread hands each chunk's buffer back once it has taken the texts out of it.
const bytes = new TextBytes(() => {
  const back = receiveMessageOnPort(job.back)?.message as ArrayBuffer | undefined;
  return back ? Buffer.from(back) : undefined;
});
for (;;) {
  // Never more than AHEAD chunks sent and not yet taken: memory stays bounded whatever the root holds.
  for (let taken = Atomics.load(counter, SLOT.taken); Atomics.load(counter, SLOT.sent) - taken >= AHEAD;) {
    if (Atomics.load(counter, SLOT.stop)) break;
    Atomics.wait(counter, SLOT.taken, taken, 100);
    taken = Atomics.load(counter, SLOT.taken);
  }
  if (Atomics.load(counter, SLOT.stop)) break;
  const start = Atomics.add(counter, SLOT.next, CHUNK);
  if (start >= n) break;
  const end = Math.min(n, start + CHUNK);
  const reads: Array<PreRead | null> = [];
  const numbers: number[] = [];
  for (let i = start; i < end; i++) {
    let r: PreRead | null = null;
    if (job.kinds[i] === 'dir') {
      try {
        r = readChild(job.names[i], bytes, numbers);
      } catch {
        r = null; // the calling thread reads it, and says what went wrong if anything does
      }
    }
    reads.push(r);
  }
  // One string (JSON.parse on the calling thread costs a fraction of a structured clone's
  // decoding), the texts' bytes and the stat numbers (written and read as doubles, not as decimal
  // text), both moved, not copied.
  const text = bytes.take();
  const nums = new Float64Array(numbers);
  job.port.postMessage({ start, json: JSON.stringify(reads), text, nums }, [text.buffer as ArrayBuffer, nums.buffer]);
  Atomics.add(counter, SLOT.sent, 1);
  Atomics.notify(counter, SLOT.sent);
}
