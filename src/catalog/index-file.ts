import crypto from 'node:crypto';
import fs from 'node:fs';

// Reading the catalog index's file (its layout: persist.ts). The file is read through one small
// buffer used again and again: the checksum streams over it, only the JSON head and the stat
// numbers are copied out, and the entries' text is left in the file until something asks for it.
// Memory a process touches for the first time is what a cold start pays most for after the
// syscalls (a page fault per 4 KB: tens of ms for a whole 15 MB file), so a listing that copies
// the text to stdout reads it through the same small buffer again.
//
// The text is read after the checksum held, from the same open descriptor: writers never change
// an index file in place (they rename a whole new file over it), so the descriptor keeps reading
// the file that was checked.

export const MAGIC = 'SDIX5 ';
const CHUNK = 1 << 18;
let shared: Buffer | null = null;

/** The one read buffer (its pages touched once per process). */
function chunkBuffer(): Buffer {
  return (shared ??= Buffer.allocUnsafeSlow(CHUNK));
}

const closer = new FinalizationRegistry<number>((fd) => fs.close(fd, () => undefined));

/** Bytes handed out in pieces, each valid only during the call that receives it. */
export interface ByteSpan {
  chunks(each: (bytes: Uint8Array) => void): void;
}

/**
 * The entries' text of one index file. Until some entry is asked for as bytes, it stays in the
 * file (a JSON listing streams spans of it); the first such ask reads it whole and lets the file go.
 */
export class TextSection {
  private all: Buffer | null;

  constructor(
    private fd: number | null,
    private readonly at: number,
    readonly length: number,
    whole: Buffer | null = null,
  ) {
    this.all = whole;
    if (fd !== null) closer.register(this, fd, this);
  }

  /** Bytes `[from, to)` of the text. */
  slice(from: number, to: number): Buffer {
    return this.detach().subarray(from, to);
  }

  /** The whole text in memory, and the file let go (before a save renames a new file over it). */
  detach(): Buffer {
    if (!this.all) {
      const all = Buffer.allocUnsafeSlow(this.length);
      readFully(this.fd!, all, 0, this.length, this.at);
      this.all = all;
      this.release();
    }
    return this.all;
  }

  /** Let the file go without reading it (nothing will ask for the text). */
  release(): void {
    if (this.fd === null) return;
    closer.unregister(this);
    fs.closeSync(this.fd);
    this.fd = null;
  }

  /** Bytes `[from, to)` of the text, streamed through the shared buffer when not in memory. */
  span(from: number, to: number): ByteSpan | Uint8Array {
    if (this.all) return this.all.subarray(from, to);
    return {
      chunks: (each) => {
        if (this.all) return each(this.all.subarray(from, to));
        const buf = chunkBuffer();
        for (let pos = from; pos < to;) {
          const n = Math.min(CHUNK, to - pos);
          readFully(this.fd!, buf, 0, n, this.at + pos);
          each(buf.subarray(0, n));
          pos += n;
        }
      },
    };
  }
}

function readFully(fd: number, buf: Buffer, off: number, len: number, pos: number): void {
  while (len > 0) {
    const n = fs.readSync(fd, buf, off, len, pos);
    // The file was checked whole: shorter now means it was changed in place, which no writer does.
    if (n <= 0) throw new Error('catalog index: the file changed while it was read');
    off += n;
    pos += n;
    len -= n;
  }
}

export interface IndexFile {
  /** The JSON head, parsed (its shape is the caller's to check). */
  head: unknown;
  text: TextSection;
  nums: Float64Array;
}

/** A source of the file's bytes: an open descriptor, or the bytes themselves (tests, tools). */
type Source = { fd: number; size: number } | { bytes: Buffer };

function sourceSize(src: Source): number {
  return 'fd' in src ? src.size : src.bytes.length;
}

/** Copy `len` bytes at `pos` of the source into `buf` (which must hold them). */
function readAt(src: Source, buf: Buffer, len: number, pos: number): void {
  if ('fd' in src) readFully(src.fd, buf, 0, len, pos);
  else src.bytes.copy(buf, 0, pos, pos + len);
}

/** The sizes in the header line: where the JSON, the text and the numbers are (null when malformed). */
function header(src: Source): { sum: string; start: number; textAt: number; textBytes: number; binAt: number } | null {
  const size = sourceSize(src);
  const buf = chunkBuffer();
  const n = Math.min(size, 128);
  readAt(src, buf, n, 0);
  const nl = buf.subarray(0, n).indexOf(10);
  if (nl < MAGIC.length + 68 || buf.toString('latin1', 0, MAGIC.length) !== MAGIC) return null;
  const sum = buf.toString('latin1', MAGIC.length, MAGIC.length + 64);
  const sizes = /^ (\d{1,15}) (\d{1,15})$/.exec(buf.toString('latin1', MAGIC.length + 64, nl));
  if (!sizes) return null;
  const start = nl + 1;
  const textAt = start + Number(sizes[1]);
  const textBytes = Number(sizes[2]);
  const binAt = (textAt + textBytes + 7) & ~7;
  if (binAt > size || (size - binAt) % 8 !== 0) return null;
  return { sum, start, textAt, textBytes, binAt };
}

/**
 * The parts of an index file whose header and checksum hold (null otherwise). Streams the file
 * once: the checksum over everything after the header line, copying out the head and the numbers.
 */
function readIndexFrom(src: Source): IndexFile | null {
  const h = header(src);
  if (!h) return null;
  const size = sourceSize(src);
  const head = Buffer.allocUnsafe(h.textAt - h.start);
  const nums = new Float64Array((size - h.binAt) / 8);
  const numBytes = new Uint8Array(nums.buffer);
  const hash = crypto.createHash('sha256');
  const buf = chunkBuffer();
  for (let pos = h.start; pos < size;) {
    const n = Math.min(CHUNK, size - pos);
    readAt(src, buf, n, pos);
    const bytes = buf.subarray(0, n);
    hash.update(bytes);
    copyOverlap(bytes, pos, head, h.start);
    copyOverlap(bytes, pos, numBytes, h.binAt);
    pos += n;
  }
  if (hash.digest('hex') !== h.sum) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(head.toString('utf8'));
  } catch {
    return null;
  }
  const text =
    'fd' in src && h.textBytes > 0
      ? new TextSection(src.fd, h.textAt, h.textBytes)
      : new TextSection(null, 0, h.textBytes, 'fd' in src ? Buffer.alloc(0) : src.bytes.subarray(h.textAt, h.textAt + h.textBytes));
  return { head: parsed, text, nums };
}

/** Copy the part of `bytes` (at file position `pos`) that falls in `into` (at file position `at`). */
function copyOverlap(bytes: Uint8Array, pos: number, into: Uint8Array, at: number): void {
  const from = Math.max(pos, at);
  const to = Math.min(pos + bytes.length, at + into.length);
  if (from < to) into.set(bytes.subarray(from - pos, to - pos), from - at);
}

/** An index file read from disk (null when absent, unreadable or in doubt). The file stays open for its text. */
export function readIndexFile(file: string): IndexFile | null {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return null;
  }
  let out: IndexFile | null;
  try {
    out = readIndexFrom({ fd, size: fs.fstatSync(fd).size });
  } catch {
    out = null;
  }
  // Kept open only by a text section that may still read it.
  if (!out || out.text.length === 0) fs.closeSync(fd);
  return out;
}

/** An index file's parts from its bytes (null when in doubt). */
export function readIndexBytes(raw: Buffer): IndexFile | null {
  return readIndexFrom({ bytes: raw });
}
