import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonStore } from './json-store.js';
import { FileLock } from './file-lock.js';
import { SkillDockError, toErrorInfo } from '../errors.js';
import { formatMessage } from '../contract/index.js';

// The data store's errors reach the window as a key and its parameters (issue 12), with the
// English message worded from that key for the CLI. Real files, real lock files.

const Schema = z.object({ n: z.number() });
let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-store-keys-')));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function store(lockTimeoutMs = 15_000) {
  return new JsonStore<{ n: number }>({
    file: path.join(dir, 'doc.json'),
    schema: Schema,
    version: 2,
    defaults: () => ({ n: 0 }),
    lockTimeoutMs,
  });
}

/** What `fn` threw, as it crosses a process boundary. */
function thrown(fn: () => unknown) {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(SkillDockError);
  const info = toErrorInfo(caught);
  expect(info.msg).toBeDefined();
  expect(info.message).toBe(formatMessage(info.msg!));
  return info;
}

describe('json-store errors are keyed', () => {
  it('a file from a newer SkillDock: store.newer-version with both versions, the file untouched', () => {
    const s = store();
    const text = JSON.stringify({ version: 9, data: { n: 1 } });
    fs.writeFileSync(s.file, text);
    const info = thrown(() => s.read());
    expect(info.code).toBe('unsupported');
    expect(info.msg).toEqual({ key: 'store.newer-version', params: { file: s.file, version: 9, supported: 2 } });
    expect(fs.readFileSync(s.file, 'utf8')).toBe(text);
  });

  it('a data file that cannot be read (a link loop): store.read-failed with the errno', () => {
    const s = store();
    fs.symlinkSync(path.basename(s.file), s.file); // doc.json -> doc.json
    const info = thrown(() => s.read());
    expect(info.code).toBe('io');
    expect(info.msg).toEqual({ key: 'store.read-failed', params: { file: s.file, errno: 'ELOOP' } });
    expect(fs.lstatSync(s.file).isSymbolicLink()).toBe(true);
  });
});

describe('file-lock errors are keyed', () => {
  it('held by a live process: store.locked-by names its pid', () => {
    const s = store(200);
    fs.writeFileSync(s.lockFile, JSON.stringify({ pid: process.ppid, host: os.hostname(), nonce: 'live', time: Date.now() }));
    const info = thrown(() => s.update((v) => v));
    expect(info.msg).toEqual({ key: 'store.locked-by', params: { pid: process.ppid, file: s.lockFile } });
  });

  it('a lock file that names no process (unreadable owner, or a pid that is not a number): store.locked', () => {
    const lock = new FileLock(path.join(dir, 'x.lock'), { timeoutMs: 150 });
    for (const content of ['not json', JSON.stringify({ pid: { evil: true }, host: os.hostname(), time: Date.now() })]) {
      fs.writeFileSync(lock.file, content);
      const info = thrown(() => lock.run(() => 1));
      expect(info.msg).toEqual({ key: 'store.locked', params: { file: lock.file } });
      expect(fs.readFileSync(lock.file, 'utf8')).toBe(content);
    }
  });

  it('taken again inside its own holder: store.busy-here', () => {
    const lock = new FileLock(path.join(dir, 'y.lock'));
    const info = lock.run(() => thrown(() => new FileLock(lock.file).run(() => 1)));
    expect(info.msg).toEqual({ key: 'store.busy-here', params: { file: lock.file } });
    expect(fs.existsSync(lock.file)).toBe(false);
  });
});
