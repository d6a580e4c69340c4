// Component tests: Arco needs its React 19 adapter before any component renders (`lib/` under
// Node, where the package resolves to its CommonJS build).
import '@arco-design/web-react/lib/_util/react-19-adapter';
import { Message, Notification } from '@arco-design/web-react';
import { act, configure } from '@testing-library/react';
import { sleep } from '../../../test/support/wait';
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
  const deadline = Date.now() + limitMs;
  // Cleared again on every turn: a toast may come after the test's last step (an undo's answer).
  // The turn passes inside an async act(), so the exit transitions' own state updates run there,
  // before the DOM goes: a sync act() around the clear alone left them to fire later, into a
  // torn-down DOM, on a loaded machine (settle-toasts.test caught it: "window is not defined").
  while (document.querySelector(SHOWN)) {
    if (Date.now() > deadline) throw new Error(`toasts still shown ${limitMs} ms after they were cleared`);
    await act(async () => {
      Notification.clear();
      Message.clear();
      await sleep(25);
    });
  }
}

afterEach(() => settleToasts());
// And once more when the file ends: a toast may still come while the file's own hooks run.
afterAll(() => settleToasts());
