import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// Stat numbers through Node's binding (when this Node answers as fs does) and through fs: the same
// six numbers as fs.lstatSync / fs.statSync / fs.fstatSync give, for files, folders, links and
// missing paths, and the same typed listing as fs.readdirSync, either way.

let base: string;
const env = { ...process.env };
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-statnum-')));
  vi.resetModules();
});
afterEach(() => {
  process.env = { ...env };
  vi.restoreAllMocks();
  fs.rmSync(base, { recursive: true, force: true });
});

const six = (s: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number; mode: number }) => [
  s.dev,
  s.ino,
  s.size,
  s.mtimeMs,
  s.ctimeMs,
  s.mode,
];

/** `unknownTypes`: the binding lists every entry's type as unknown (filesystems without types). */
async function check(unknownTypes = false): Promise<number> {
  const proc = process as unknown as { binding(name: string): Record<string, (...a: unknown[]) => unknown> };
  const real = proc.binding.bind(process);
  let calls = 0;
  vi.spyOn(proc, 'binding').mockImplementation((name) => {
    const b = real(name);
    return {
      lstat: (...a: unknown[]) => (calls++, b.lstat(...a)),
      stat: (...a: unknown[]) => (calls++, b.stat(...a)),
      fstat: (...a: unknown[]) => (calls++, b.fstat(...a)),
      readdir: (...a: unknown[]) => {
        calls++;
        const r = b.readdir(...a) as [string[], number[]];
        return unknownTypes ? [r[0], r[1].map(() => 0)] : r;
      },
    };
  });
  const m = await import('./stat-numbers.js');
  const file = path.join(base, 'a.sh');
  fs.writeFileSync(file, '#!/bin/sh\necho a\n', { mode: 0o755 });
  fs.mkdirSync(path.join(base, 'dir'));
  fs.symlinkSync('a.sh', path.join(base, 'link'));
  for (const p of [file, path.join(base, 'dir'), path.join(base, 'link'), base]) {
    expect(six(m.lstatNumbers(p)!), p).toEqual(six(fs.lstatSync(p)));
    expect(six(m.statNumbers(p)!), p).toEqual(six(fs.statSync(p)));
  }
  expect(m.isLinkMode(m.lstatNumbers(path.join(base, 'link'))!.mode)).toBe(true);
  expect(m.isFileMode(m.statNumbers(path.join(base, 'link'))!.mode)).toBe(true);
  expect(m.isDirMode(m.lstatNumbers(path.join(base, 'dir'))!.mode)).toBe(true);
  expect(m.lstatNumbers(path.join(base, 'missing'))).toBeUndefined();
  expect(m.statNumbers(path.join(base, 'dangling'))).toBeUndefined();
  // Listings: each entry's type as a Dirent tells it (a FIFO is none of the three).
  if (process.platform !== 'win32') spawnSync('mkfifo', [path.join(base, 'fifo')]);
  const dirents = fs.readdirSync(base, { withFileTypes: true });
  const want = dirents.map((e) => [e.name, e.isFile() ? 'file' : e.isDirectory() ? 'dir' : e.isSymbolicLink() ? 'link' : '']);
  for (let i = 0; i < 2; i++) expect(m.listTyped(base)).toEqual(want);
  expect(() => m.listTyped(path.join(base, 'missing'))).toThrow();
  expect(() => m.listTyped(file)).toThrow();
  const fd = fs.openSync(file, 'r');
  try {
    for (let i = 0; i < 2; i++) expect(six(m.fstatNumbers(fd))).toEqual(six(fs.fstatSync(fd)));
  } finally {
    fs.closeSync(fd);
  }
  return calls;
}

describe('stat numbers', () => {
  it('match fs through the binding and through fs', async () => {
    // On the Node running the tests, the binding answers.
    expect(await check()).toBeGreaterThan(10);
    fs.rmSync(base, { recursive: true });
    fs.mkdirSync(base);
    vi.restoreAllMocks();
    vi.resetModules();
    process.env.SKILLDOCK_INDEX_PLAIN_STAT = '1';
    expect(await check()).toBe(0);
  });

  it('asks lstat for the type of an entry listed without one, as fs does', async () => {
    expect(await check(true)).toBeGreaterThan(10);
  });
});
