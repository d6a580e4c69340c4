import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../../stores/errors';

/** One user action against the engine: busy while it runs, its failure worded for the user. */
export function useAction(): {
  busy: boolean;
  error: string | null;
  setError(e: string | null): void;
  run(fn: () => Promise<void>): Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, setError, run };
}

/** A list read from the engine, read again when `rev` moves (a library change). */
export function useLoaded<T>(read: () => Promise<T>, rev: number): { data: T | null; error: string | null; reload(): Promise<void> } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await read());
      setError(null);
    } catch (err) {
      setError(errorText(err));
    }
    // `read` is a fresh arrow each render; the list it reads does not change with it
  }, []); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    void reload();
  }, [reload, rev]);
  return { data, error, reload };
}
