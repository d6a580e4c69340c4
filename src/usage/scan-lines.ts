import fs from 'node:fs';

// Reading an agent's session log from where the last scan stopped, line by line, on bytes: a line
// is decoded and handed on only when it holds one of the markers (a skill being loaded is rare in
// a transcript, tool results and messages are most of its bytes), so a scan costs about what
// finding the line breaks costs. Memory is bounded: one chunk, and a line longer than `maxLine`
// is skipped (counted) without being held. Only complete lines are read: the offset returned stops
// after the last line break, so a line the agent is still writing is read by the next scan.

export interface LineTally {
  /** Complete lines seen. */
  lines: number;
  /** Lines that are not a JSON object (or did not parse; the caller adds those). */
  bad: number;
  /** Lines over `maxLine` bytes, skipped unread. */
  tooLong: number;
}

export interface ScanOptions {
  /** Byte offset to start at (just after a line break, or 0). */
  offset: number;
  /** Byte strings; a line holding any of them goes to `onLine`. */
  markers: Buffer[];
  /** The first `sample` complete lines go to `onSample` whatever they hold (a format check). */
  sample: number;
  onLine(text: string): void;
  onSample(text: string): void;
  maxLine?: number;
  chunk?: number;
}

const NL = 0x0a;
const CR = 0x0d;
const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }

/** Reads `file` from `opts.offset`; returns the offset after the last complete line and the tally. */
export function scanLines(file: string, opts: ScanOptions): { offset: number; tally: LineTally } {
  const maxLine = opts.maxLine ?? 8 * 1024 * 1024;
  let buf = Buffer.allocUnsafe(opts.chunk ?? 1024 * 1024);
  const tally: LineTally = { lines: 0, bad: 0, tooLong: 0 };
  let sampled = 0;
  let filePos = opts.offset; // where the next read starts
  let done = opts.offset; // after the last complete line
  let have = 0; // bytes in buf, starting at file offset `done` (or mid-skip)
  let skipping = false; // inside a line too long to hold
  const fd = fs.openSync(file, 'r');
  try {
    for (;;) {
      if (have === buf.length) {
        if (buf.length < maxLine) {
          // A line longer than the buffer: grow, up to maxLine.
          const bigger = Buffer.allocUnsafe(Math.min(maxLine, buf.length * 2));
          buf.copy(bigger, 0, 0, have);
          buf = bigger;
        } else {
          skipping = true; // drop what is held and look for the line's end
          have = 0;
        }
      }
      const n = fs.readSync(fd, buf, have, buf.length - have, filePos);
      if (n === 0) break;
      filePos += n;
      const end = have + n;
      let start = 0;
      // Where each marker next occurs in buf (-1: not in the rest): one search per occurrence.
      const next = opts.markers.map((m) => buf.indexOf(m, 0));
      for (;;) {
        const nl = buf.indexOf(NL, start);
        if (nl === -1 || nl >= end) break;
        if (skipping) {
          skipping = false;
          tally.lines++;
          tally.tooLong++;
        } else {
          tally.lines++;
          let last = nl;
          if (last > start && buf[last - 1] === CR) last--;
          if (last === start) {
            tally.lines--; // a blank line is no line
          } else if (buf[start] !== OPEN || buf[last - 1] !== CLOSE) {
            tally.bad++;
          } else {
            let hit = false;
            for (let i = 0; i < next.length; i++) {
              let at = next[i]!;
              while (at !== -1 && at < start) at = buf.indexOf(opts.markers[i]!, start);
              next[i] = at;
              if (at !== -1 && at < nl) hit = true;
            }
            if (sampled < opts.sample) {
              sampled++;
              opts.onSample(buf.toString('utf8', start, last));
            }
            if (hit) opts.onLine(buf.toString('utf8', start, last));
          }
        }
        start = nl + 1;
        done = filePos - end + start;
      }
      // Keep the unfinished line at the front of the buffer.
      if (skipping) have = 0;
      else {
        buf.copy(buf, 0, start, end);
        have = end - start;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return { offset: done, tally };
}
