// Megabytes of output (a catalog index being saved, a catalog listing on stdout) written through one
// buffer used again and again: text is encoded into it, small byte pieces are copied into it, and
// it goes to `flushTo` a chunk at a time. Memory touched for the first time costs a page fault per
// 4 KB (tens of ms for the 15 MB of an index of 10,000 skills on a small VM), which a joined string
// or a whole-file Buffer pays in full; this pays it once for 256 KB.

const SIZE = 1 << 18;

export class ChunkWriter {
  private readonly buf = Buffer.allocUnsafeSlow(SIZE);
  private off = 0;

  /** `flushTo` gets each chunk once, valid only during the call (the buffer is used again after it). */
  constructor(private readonly flushTo: (chunk: Uint8Array) => void) {}

  text(s: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: what surely fits goes in; a big string goes alone.
    if (s.length * 3 > SIZE - this.off) {
      this.flush();
      if (s.length * 3 > SIZE) return this.flushTo(Buffer.from(s, 'utf8'));
    }
    this.off += this.buf.write(s, this.off, 'utf8');
  }

  bytes(b: Uint8Array): void {
    if (b.length > SIZE - this.off) {
      this.flush();
      if (b.length > SIZE / 2) return this.flushTo(b);
    }
    this.buf.set(b, this.off);
    this.off += b.length;
  }

  flush(): void {
    if (this.off === 0) return;
    const n = this.off;
    this.off = 0;
    this.flushTo(this.buf.subarray(0, n));
  }
}
