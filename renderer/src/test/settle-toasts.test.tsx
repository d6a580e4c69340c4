// @vitest-environment happy-dom
import { settleToasts } from './setup';
import { act, waitFor } from '@testing-library/react';
import { Message, Notification } from '@arco-design/web-react';
import { expect, it } from 'vitest';
import { sleep, waitFor as waitUntil } from '../../../test/support/wait';

async function showToasts(): Promise<void> {
  act(() => {
    Notification.info({ id: 'long', title: 'stays', content: 'ten seconds', duration: 10_000, position: 'bottomRight' });
    Notification.info({ id: 'going', title: 'leaves', content: 'removed', duration: 10_000, position: 'bottomRight' });
    Message.success({ content: 'saved', duration: 10_000 });
  });
  // On screen, still entering (400 ms): then one is removed and leaves (300 ms).
  await waitFor(() => expect(document.querySelectorAll('.arco-notification')).toHaveLength(2));
  act(() => Notification.remove('going'));
}

/**
 * What the end of a test file does to React: the DOM's globals are gone; timers still fire. With
 * `until`, only until it holds (the error came); without, the whole quiet period, to show none comes.
 */
async function withoutWindow(ms: number, until?: (errors: unknown[]) => boolean): Promise<unknown[]> {
  const errors: unknown[] = [];
  const caught = (err: unknown) => errors.push(err);
  const g = globalThis as { window?: unknown };
  const window = g.window;
  const listeners = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', caught);
  delete g.window;
  try {
    if (until) await waitUntil(() => until(errors), { timeoutMs: ms, what: 'an error from a toast timer' });
    else await sleep(ms);
  } finally {
    g.window = window;
    process.removeListener('uncaughtException', caught);
    for (const l of listeners) process.on('uncaughtException', l);
  }
  return errors;
}

it('toasts left on screen fire into a torn-down DOM (what settleToasts is for)', async () => {
  await showToasts();
  expect(document.querySelectorAll('.arco-notification')).toHaveLength(2);
  expect(document.querySelectorAll('.arco-message')).toHaveLength(1);
  const errors = await withoutWindow(5000, (seen) => seen.length > 0);
  expect(errors.map(String).join('\n')).toMatch(/window is not defined/);
});

it('after settleToasts no toast is shown and nothing fires into a torn-down DOM', async () => {
  await showToasts();
  await settleToasts();
  expect(document.querySelector('.arco-notification, .arco-message')).toBeNull();
  expect(await withoutWindow(600)).toEqual([]);
});
