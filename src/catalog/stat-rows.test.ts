import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The stat-row check on real files, through Node's stat binding (the fast way, when this Node
// answers as fs does) and through fs.lstatSync: the same verdicts either way.

let base: string;
const env = { ...process.env };
beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-rows-')));
  vi.resetModules();
});
afterEach(() => {
  process.env = { ...env };
  vi.restoreAllMocks();
  fs.rmSync(base, { recursive: true, force: true });
});

function makeSkill(): string {
  const dir = path.join(base, 'skill');
  fs.mkdirSync(path.join(dir, 'references', 'deep'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: skill\n---\nBody.\n');
  fs.writeFileSync(path.join(dir, 'references', 'a.md'), '# A\n');
  fs.writeFileSync(path.join(dir, 'references', 'deep', 'b.md'), '# B\n');
  fs.symlinkSync('references/a.md', path.join(dir, 'link.md'));
  fs.symlinkSync('nowhere', path.join(dir, 'dangling'));
  const linked = path.join(base, 'linked');
  fs.symlinkSync(dir, linked);
  return linked;
}

/** A check as a fresh process makes it (the way of stat chosen anew), with rows taken now. */
async function checker(linked: string) {
  const { rowsChecker, statRows } = await import('./stat-rows.js');
  const rows = statRows(linked, 0, Infinity)!;
  // Taken well before the stamp: nothing is racy.
  const check = rowsChecker(BigInt(Date.now() + 60_000) * 1_000_000n, 0n);
  return { rows, check: () => check(linked, rows) };
}

type Binding = Record<'lstat' | 'stat', (...args: unknown[]) => unknown>;

/** The check's verdict after each edit, and how many of its stats went through Node's binding. */
async function verdicts(linked: string): Promise<{ out: boolean[]; viaBinding: number }> {
  const dir = fs.realpathSync(linked);
  const out: boolean[] = [];
  const proc = process as unknown as { binding(name: string): Binding };
  const real = proc.binding.bind(process);
  let calls = 0;
  let viaBinding = 0;
  const counted = (b: Binding): Binding => ({
    lstat: (...a) => (calls++, b.lstat(...a)),
    stat: (...a) => (calls++, b.stat(...a)),
  });
  vi.spyOn(proc, 'binding').mockImplementation((name) => counted(real(name)));
  const edits = [
    () => undefined,
    () => fs.chmodSync(path.join(dir, 'references', 'a.md'), 0o755),
    () => fs.appendFileSync(path.join(dir, 'references', 'deep', 'b.md'), 'more\n'),
    () => fs.writeFileSync(path.join(dir, 'references', 'deep', 'c.md'), 'new\n'),
    () => fs.rmSync(path.join(dir, 'dangling')),
    // A folder replaced by a file: its entries' paths now fail with ENOTDIR.
    () => {
      fs.rmSync(path.join(dir, 'references'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'references'), 'a file\n');
    },
  ];
  for (const edit of edits) {
    const { check, rows } = await checker(linked);
    calls = 0;
    expect(check()).toBe(true);
    // Besides the rows: the probe of a missing path.
    if (calls >= rows.rels.length) viaBinding++;
    edit();
    out.push(check());
  }
  return { out, viaBinding };
}

const edits = 6;

describe('stat rows', () => {
  it('unchanged rows hold and every change is seen, through the binding and through fs alike', async () => {
    const fast = await verdicts(makeSkill());
    expect(fast.out).toEqual([true, false, false, false, false, false]);
    // On the Node running the tests, every row went through the binding.
    expect(fast.viaBinding).toBe(edits);

    fs.rmSync(path.join(base, 'skill'), { recursive: true });
    fs.rmSync(path.join(base, 'linked'));
    process.env.SKILLDOCK_INDEX_PLAIN_STAT = '1';
    const plain = await verdicts(makeSkill());
    expect(plain.out).toEqual(fast.out);
    expect(plain.viaBinding).toBe(0);
  });

  it('a link pointed elsewhere is seen', async () => {
    const linked = makeSkill();
    const { check } = await checker(linked);
    const copy = path.join(base, 'copy');
    fs.cpSync(fs.realpathSync(linked), copy, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    fs.rmSync(linked);
    fs.symlinkSync(copy, linked);
    expect(check()).toBe(false);
  });
});
