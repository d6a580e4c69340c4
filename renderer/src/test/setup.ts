// Component tests: Arco needs its React 19 adapter before any component renders (`lib/` under
// Node, where the package resolves to its CommonJS build).
import '@arco-design/web-react/lib/_util/react-19-adapter';
import { Message, Notification } from '@arco-design/web-react';
import { act, configure, waitFor } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

// The engine runs in a child process on a shared two-core machine: give it time to answer.
configure({ asyncUtilTimeout: 10_000 });

const SHOWN = '.arco-notification, .arco-message';

/**
 * Arco's toasts live in React roots of their own, which `cleanup()` does not unmount: a toast left
 * on screen keeps timers (its duration, its enter and exit transitions) that outlive the test. One
 * firing after the file's DOM is torn down makes React read `window` and fail outside every test
 * ("window is not defined", which once turned a green run red). So every test ends with its toasts
 * cleared and their exit transitions finished.
 */
export async function settleToasts(limitMs = 3000): Promise<void> {
  if (!document.querySelector(SHOWN)) return;
  // Cleared again on every look: a toast may come after the test's last step (an undo's answer).
  await waitFor(
    () => {
      act(() => {
        Notification.clear();
        Message.clear();
      });
      if (document.querySelector(SHOWN)) throw new Error(`toasts still shown ${limitMs} ms after they were cleared`);
    },
    { timeout: limitMs, interval: 25 },
  );
}

afterEach(() => settleToasts());
// And once more when the file ends: a toast may still come while the file's own hooks run.
afterAll(() => settleToasts());
