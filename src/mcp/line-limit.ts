import { Transform, type TransformCallback } from 'node:stream';

/**
 * Standard input cut into whole lines of at most `max` bytes each (newline included), for the SDK's
 * stdio transport, which reads newline-delimited JSON-RPC. A longer line is never held: its bytes
 * are dropped as they come, up to and including its newline, and `onDrop` hears how many there
 * were; the lines after it go through as usual. So a host or a hostile pipe that sends a 100 MB
 * line costs at most `max` bytes of memory and gets an error for it, and the server stays up (the
 * SDK's own reader holds up to 10 MB, then closes the connection without a word).
 *
 * By hand: split2's `skipOverflow` drops a long line without telling anyone, so no error could
 * be sent for it, and it hands on strings where the SDK reads bytes.
 */
export class LineLimit extends Transform {
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** Bytes of an overlong line dropped so far (-1: not inside one). */
  private dropped = -1;

  constructor(
    private readonly max: number,
    private readonly onDrop: (bytes: number) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let at = 0;
    while (at < chunk.length) {
      const nl = chunk.indexOf(10, at);
      const end = nl === -1 ? chunk.length : nl + 1;
      const piece = chunk.subarray(at, end);
      at = end;
      if (this.dropped >= 0) this.dropped += piece.length;
      else if (this.heldBytes + piece.length > this.max) {
        this.dropped = this.heldBytes + piece.length;
        this.held = [];
        this.heldBytes = 0;
      } else {
        this.held.push(piece);
        this.heldBytes += piece.length;
      }
      if (nl === -1) break;
      if (this.dropped >= 0) {
        const bytes = this.dropped;
        this.dropped = -1;
        this.onDrop(bytes);
      } else {
        this.push(this.held.length === 1 ? this.held[0] : Buffer.concat(this.held, this.heldBytes));
        this.held = [];
        this.heldBytes = 0;
      }
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    // A last line without its newline is not a message (the SDK would never read it either).
    if (this.dropped >= 0) this.onDrop(this.dropped);
    this.held = [];
    done();
  }
}
