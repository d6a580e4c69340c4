import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonStore, type CorruptInfo } from './json-store.js';
import { FileLock } from './file-lock.js';
import { EventBus } from '../context.js';
import type { SkillDockEvent } from '../contract/index.js';
import { sleep, waitFor } from '../../test/support/wait.js';

const worker = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../test/support/store-worker.ts');
const Schema = z.object({ counter: z.number().int(), seen: z.array(z.string()), payload: z.string() });
type Doc = z.infer<typeof Schema>;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-store-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function makeStore(extra: Partial<ConstructorParameters<typeof JsonStore<Doc>>[0]> = {}) {
  return new JsonStore<Doc>({
    file: path.join(dir, 'doc.json'),
    schema: Schema,
    version: 1,
    defaults: () => ({ counter: 0, seen: [], payload: '' }),
    ...extra,
  });
}

function runWorker(file: string, mode: string, count: number, tag: string) {
  return spawn(process.execPath, ['--import', 'tsx', worker, file, mode, String(count), tag], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: { ...process.env, HOME: dir, SKILLDOCK_HOME: path.join(dir, 'home') },
  });
}

function exited(child: ReturnType<typeof spawn>): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

describe('JsonStore', () => {
  it('returns defaults for a missing file and writes a versioned envelope with a backup of the previous file', () => {
    const store = makeStore();
    expect(store.read()).toEqual({ counter: 0, seen: [], payload: '' });
    expect(fs.existsSync(store.file)).toBe(false);
    store.update((s) => {
      s.counter = 1;
    });
    store.update((s) => ({ ...s, counter: 2 }));
    expect(JSON.parse(fs.readFileSync(store.file, 'utf8'))).toEqual({ version: 1, data: { counter: 2, seen: [], payload: '' } });
    expect(JSON.parse(fs.readFileSync(store.backupFile, 'utf8')).data.counter).toBe(1);
    expect(store.read().counter).toBe(2);
    // no temp or lock files left behind
    expect(fs.readdirSync(dir).sort()).toEqual(['doc.json', 'doc.json.bak']);
  });

  it('reuses an unchanged file without re-reading it, yet sees every change, and hands out copies', () => {
    const store = makeStore();
    store.update(() => ({ counter: 1, seen: ['a'], payload: 'xxxx' }));
    const first = store.read();
    first.seen.push('mutated by a caller');
    expect(store.read().seen).toEqual(['a']);

    // Rewritten in place by hand, same size, same second: ctime moves, so the change is seen.
    const file = path.join(dir, 'doc.json');
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('"xxxx"', '"yyyy"'));
    expect(store.read().payload).toBe('yyyy');
    // Unreadable now (a directory in its place): not served from memory.
    fs.rmSync(file);
    fs.mkdirSync(file);
    expect(store.read()).toEqual({ counter: 0, seen: [], payload: '' }); // no backup yet: defaults, not the memo
  });

  it('refuses to save a value that does not match the schema and leaves the file as it was', () => {
    const store = makeStore();
    store.update((s) => ({ ...s, counter: 5 }));
    const before = fs.readFileSync(store.file, 'utf8');
    expect(() => store.update((s) => ({ ...s, counter: 'six' as unknown as number }))).toThrow();
    expect(fs.readFileSync(store.file, 'utf8')).toBe(before);
    expect(fs.existsSync(store.lockFile)).toBe(false);
  });

  it('moves a corrupt file aside, tells the user and uses the last good backup', () => {
    const told: CorruptInfo[] = [];
    const events: SkillDockEvent[] = [];
    const bus = new EventBus();
    bus.on((e) => events.push(e));
    const store = makeStore({ onCorrupt: (i) => told.push(i), events: bus });
    store.update((s) => ({ ...s, counter: 1 }));
    store.update((s) => ({ ...s, counter: 2 }));
    fs.writeFileSync(store.file, '{"version":1,"data":{"counter":'); // torn by hand

    expect(store.read().counter).toBe(1);
    expect(told).toHaveLength(1);
    expect(told[0].recoveredFrom).toBe('backup');
    expect(told[0].reason).toMatch(/not valid JSON/);
    expect(path.basename(told[0].movedTo)).toMatch(/^doc\.json\.corrupt-/);
    expect(fs.readFileSync(told[0].movedTo, 'utf8')).toBe('{"version":1,"data":{"counter":');
    expect(events).toEqual([{ type: 'store-corrupt', ...told[0] }]);
    // the backup was put back in place: the next read is clean and silent
    expect(store.read().counter).toBe(1);
    expect(told).toHaveLength(1);
  });

  it('treats a schema mismatch as corrupt and falls back to defaults without a backup', () => {
    const told: CorruptInfo[] = [];
    const store = makeStore({ onCorrupt: (i) => told.push(i) });
    fs.writeFileSync(store.file, JSON.stringify({ version: 1, data: { counter: 'x', seen: [], payload: '' } }));
    expect(store.read()).toEqual({ counter: 0, seen: [], payload: '' });
    expect(told[0]).toMatchObject({ recoveredFrom: 'defaults' });
    expect(told[0].reason).toMatch(/counter/);
    expect(fs.existsSync(store.file)).toBe(false);
    // update after recovery works from the defaults
    expect(store.update((s) => ({ ...s, counter: 9 })).counter).toBe(9);
  });

  it('migrates old schema versions step by step, including a pre-store plain JSON file', () => {
    const V3 = z.object({ items: z.array(z.object({ id: z.string(), label: z.string() })), theme: z.string() });
    const mk = () =>
      new JsonStore({
        file: path.join(dir, 'm.json'),
        schema: V3,
        version: 3,
        defaults: () => ({ items: [], theme: 'system' }),
        migrations: {
          0: (old) => ({ names: (old as { names: string[] }).names }), // plain file -> v1 (same fields)
          1: (old) => ({ items: (old as { names: string[] }).names.map((n) => ({ id: n })) }), // v1 -> v2
          2: (old) => ({
            items: (old as { items: { id: string }[] }).items.map((i) => ({ ...i, label: i.id.toUpperCase() })),
            theme: 'dark',
          }), // v2 -> v3
        },
      });
    fs.writeFileSync(path.join(dir, 'm.json'), JSON.stringify({ names: ['a', 'b'] }));
    expect(mk().read()).toEqual({
      items: [
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
      ],
      theme: 'dark',
    });
    fs.writeFileSync(path.join(dir, 'm.json'), JSON.stringify({ version: 2, data: { items: [{ id: 'z' }] } }));
    const s = mk();
    expect(s.read()).toEqual({ items: [{ id: 'z', label: 'Z' }], theme: 'dark' });
    s.update(() => undefined);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'm.json'), 'utf8')).version).toBe(3);
  });

  it('refuses a file from a newer version and never moves or overwrites it', () => {
    const store = makeStore();
    const text = JSON.stringify({ version: 7, data: { future: true } });
    fs.writeFileSync(store.file, text);
    expect(() => store.read()).toThrow(/newer/);
    expect(() => store.update((s) => s)).toThrow(/newer/);
    expect(fs.readFileSync(store.file, 'utf8')).toBe(text);
    expect(fs.readdirSync(dir)).toEqual(['doc.json']);
  });

  it('breaks a lock left by a dead process and times out on a live one', () => {
    const store = makeStore({ lockTimeoutMs: 300 });
    fs.writeFileSync(store.lockFile, JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), nonce: 'dead', time: 0 }));
    expect(store.update((s) => ({ ...s, counter: 3 })).counter).toBe(3);
    expect(fs.existsSync(store.lockFile)).toBe(false);
    // a lock held by a live process (our parent) is respected
    fs.writeFileSync(store.lockFile, JSON.stringify({ pid: process.ppid, host: os.hostname(), nonce: 'live', time: Date.now() }));
    expect(() => store.update((s) => s)).toThrow(/Locked by process/);
    expect(store.read().counter).toBe(3);
    fs.rmSync(store.lockFile);
  });

  it('queues async holders of one lock in the same process', async () => {
    const lock = new FileLock(path.join(dir, 'x.lock'));
    const order: string[] = [];
    const job = (tag: string) =>
      lock.runAsync(async () => {
        order.push(`${tag}+`);
        await sleep(20); // holds the lock a while
        order.push(`${tag}-`);
      });
    await Promise.all([job('a'), job('b'), job('c')]);
    expect(order).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
  });

  it('a writer killed in the middle of saving leaves a valid file', async () => {
    const store = makeStore();
    for (let round = 0; round < 3; round++) {
      const child = runWorker(store.file, 'big', 0, 'k');
      await new Promise<void>((resolve) => child.on('message', () => resolve()));
      // wait for its first save (start-up is slow on a busy machine), then kill it mid-loop
      await waitFor(() => fs.existsSync(store.file), { timeoutMs: 30_000, what: "the writer's first save" });
      // let it get well into its loop of 2 MB saves, at a different moment each round
      await sleep(250 + round * 170);
      child.kill('SIGKILL');
      await exited(child);
      const value = store.read(); // throws or recovers if the file were torn
      expect(value.payload.length).toBeGreaterThan(2_000_000);
      expect(JSON.parse(fs.readFileSync(store.file, 'utf8')).data.counter).toBe(value.counter);
    }
    // the next update breaks the dead writer's lock and sweeps its temp files
    const after = store.update((s) => ({ ...s, payload: 'done' }));
    expect(after.payload).toBe('done');
    expect(fs.readdirSync(dir).filter((n) => /\.tmp-|\.lock$|corrupt/.test(n))).toEqual([]);
  }, 60_000);

  it('two processes updating the same store at once lose nothing', async () => {
    const store = makeStore();
    const n = 150;
    const a = runWorker(store.file, 'small', n, 'a');
    const b = runWorker(store.file, 'small', n, 'b');
    let stderr = '';
    a.stderr?.on('data', (d) => (stderr += d));
    b.stderr?.on('data', (d) => (stderr += d));
    const codes = await Promise.all([exited(a), exited(b)]);
    expect(stderr).toBe('');
    expect(codes).toEqual([0, 0]);
    const final = store.read();
    expect(final.counter).toBe(2 * n);
    expect(new Set(final.seen).size).toBe(2 * n);
    expect(final.seen.filter((s) => s.startsWith('a-'))).toEqual(Array.from({ length: n }, (_, i) => `a-${i}`));
  }, 60_000);
});
