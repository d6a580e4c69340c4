// @vitest-environment happy-dom
import { settleToasts } from './setup';
import { act } from '@testing-library/react';
import { Message, Notification } from '@arco-design/web-react';
import { expect, it } from 'vitest';

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function showToasts(): Promise<void> {
  return act(async () => {
    Notification.info({ id: 'long', title: 'stays', content: 'ten seconds', duration: 10_000, position: 'bottomRight' });
    Notification.info({ id: 'going', title: 'leaves', content: 'removed', duration: 10_000, position: 'bottomRight' });
    Message.success({ content: 'saved', duration: 10_000 });
    await wait(50); // still entering (400 ms)
    Notification.remove('going'); // leaving (300 ms)
  });
}

/** What the end of a test file does to React: the DOM's globals are gone; timers still fire. */
async function withoutWindow(ms: number): Promise<unknown[]> {
  const errors: unknown[] = [];
  const caught = (err: unknown) => errors.push(err);
  const g = globalThis as { window?: unknown };
  const window = g.window;
  const listeners = process.listeners('uncaughtException');
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', caught);
  delete g.window;
  try {
    await wait(ms);
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
  const errors = await withoutWindow(600);
  expect(errors.map(String).join('\n')).toMatch(/window is not defined/);
});

it('after settleToasts no toast is shown and nothing fires into a torn-down DOM', async () => {
  await showToasts();
  await settleToasts();
  expect(document.querySelector('.arco-notification, .arco-message')).toBeNull();
  expect(await withoutWindow(600)).toEqual([]);
});
