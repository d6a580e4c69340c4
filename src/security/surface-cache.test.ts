import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getInventory } from './surface.js';
import { FolderCache, folderStamp } from './surface-cache.js';
import { tmpDir, writeSkill } from './test-helpers.js';

// The launch-time cache of skill surfaces: reused only while nothing in the folder moved.

let dir: string;
let skill: string;
beforeEach(() => {
  dir = tmpDir();
  skill = writeSkill(dir, 'tool', '# Tool\n\n```bash\npython scripts/run.py\n```\n', { 'scripts/run.py': 'print(1)\n', 'assets/data.txt': 'abc\n' });
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A cache with no "recently touched" window (tests cannot age a ctime), counting real reads. */
function counted() {
  const cache = new FolderCache<string>(100, 0);
  let reads = 0;
  const get = (digest = 'd1') => cache.get(skill, digest, () => {
    reads++;
    return getInventory(skill).digest;
  });
  return { cache, get, reads: () => reads };
}

describe('FolderCache', () => {
  it('reuses the surface while the folder is unchanged', () => {
    const c = counted();
    const first = c.get();
    expect(c.get()).toBe(first);
    expect(c.get()).toBe(first);
    expect(c.reads()).toBe(1);
  });

  it('re-reads when the catalog digest changes', () => {
    const c = counted();
    c.get('d1');
    c.get('d2');
    expect(c.reads()).toBe(2);
  });

  it('re-reads after a same-size edit whose mtime was put back (ctime moved)', () => {
    const c = counted();
    const before = c.get();
    const file = path.join(skill, 'scripts', 'run.py');
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, 'print(2)\n');
    fs.utimesSync(file, atime, mtime);
    const after = c.get();
    expect(c.reads()).toBe(2);
    expect(after).not.toBe(before);
  });

  it('re-reads after chmod +x, a new file, a removed file, a renamed folder swapped in', () => {
    const c = counted();
    c.get();
    fs.chmodSync(path.join(skill, 'assets', 'data.txt'), 0o755);
    c.get();
    fs.writeFileSync(path.join(skill, 'assets', 'new.sh'), 'echo\n');
    c.get();
    fs.rmSync(path.join(skill, 'assets', 'new.sh'));
    c.get();
    const other = writeSkill(dir, 'other', '# Tool\n\n```bash\npython scripts/run.py\n```\n', { 'scripts/run.py': 'print(1)\n', 'assets/data.txt': 'abc\n' });
    fs.renameSync(skill, path.join(dir, 'old'));
    fs.renameSync(other, skill);
    c.get();
    expect(c.reads()).toBe(5);
  });

  it('does not keep what it read from a folder touched in the last moments', () => {
    const cache = new FolderCache<number>(); // default window
    let reads = 0;
    cache.get(skill, 'd1', () => ++reads);
    cache.get(skill, 'd1', () => ++reads);
    expect(reads).toBe(2);
    expect(cache.size).toBe(0);
  });

  it('stamps without reading contents and gives up on a missing folder', () => {
    const a = folderStamp(skill)!;
    expect(a.names).toContain('fscripts/run.py');
    expect(folderStamp(path.join(dir, 'missing'))).toBeNull();
  });
});
