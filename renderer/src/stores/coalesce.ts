/**
 * One read at a time: a call while a read runs returns that read and asks for one more after it
 * (so the last change is never missed, and a burst of events costs two reads, not one each).
 */
export function coalesced(read: () => Promise<void>): () => Promise<void> {
  let inflight: Promise<void> | null = null;
  let again = false;
  return () => {
    if (inflight) {
      again = true;
      return inflight;
    }
    inflight = (async () => {
      do {
        again = false;
        await read();
      } while (again);
      inflight = null;
    })();
    return inflight;
  };
}
