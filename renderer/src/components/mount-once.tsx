import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders `children` (typically a React.lazy part of the shell) from the first time `when` is true
 * and keeps it mounted after: its chunk is fetched only once it has something to show (issue 16).
 */
export function MountOnce({ when, children }: { when: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(false);
  if (when && !wanted) setWanted(true);
  if (!wanted && !when) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
