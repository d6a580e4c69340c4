import { useCallback, useState } from 'react';
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
