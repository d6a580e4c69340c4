import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dirTimes, makeWorld, snapshot, writeSkill, type World } from '../../test/support/library.js';
import { makeZip, rawZip, SKILL_MD } from '../../test/support/zips.js';

// Each hostile archive is refused with a clear message; the library stays byte-identical and no
// folder outside the staging area (and the lock folder) so much as gained and lost an entry.

let w: World;
beforeEach(async () => {
  w = makeWorld();
  await w.service.api.importPaths({ paths: [writeSkill(path.join(w.src, 'existing'), 'existing', { 'a.txt': 'keep me' })] });
  // pre-create the folders every import touches, so their mtimes are stable baselines
  fs.mkdirSync(path.join(w.home, 'staging'), { recursive: true });
  fs.mkdirSync(path.join(w.home, 'locks'), { recursive: true });
});
afterEach(async () => {
  await w.done();
});

const outsideStaging = (rel: string) => rel === 'home/staging' || rel.startsWith('home/staging/') || rel === 'home/locks';

async function expectRefused(file: string, message: RegExp) {
  const before = snapshot(w.root, outsideStaging);
  const times = dirTimes(w.root, outsideStaging);
  const out = await w.service.api.importPaths({ paths: [file] });
  expect(out.results).toHaveLength(1);
  expect(out.results[0].status).toBe('refused');
  expect(out.results[0].message).toMatch(message);
  expect(out.journalId).toBeUndefined();
  expect(snapshot(w.root, outsideStaging)).toEqual(before);
  // `home` itself included: only home/staging (our scratch space) and home/locks (the lock file comes
  // and goes) may have changed
  expect(dirTimes(w.root, outsideStaging)).toEqual(times);
  // and the staging area is empty again
  expect(fs.existsSync(path.join(w.home, 'staging')) ? fs.readdirSync(path.join(w.home, 'staging')) : []).toEqual([]);
}

function writeRaw(name: string, buf: Buffer): string {
  const file = path.join(w.src, name);
  fs.writeFileSync(file, buf);
  return file;
}

describe('hostile archives', () => {
  it('zip-slip: an entry with ..', async () => {
    const file = writeRaw(
      'slip.zip',
      rawZip([
        { name: 'ok/SKILL.md', data: SKILL_MD('ok') },
        { name: 'ok/../../../evil.txt', data: Buffer.from('pwned') },
      ]),
    );
    await expectRefused(file, /zip-slip/);
    expect(fs.existsSync(path.join(w.root, 'evil.txt'))).toBe(false);
  });

  it('an absolute path entry', async () => {
    const target = path.join(w.root, 'abs-evil.txt');
    const file = writeRaw(
      'abs.zip',
      rawZip([
        { name: 'SKILL.md', data: SKILL_MD('abs') },
        { name: target, data: Buffer.from('pwned') },
      ]),
    );
    await expectRefused(file, /absolute path/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('folders that differ only in case or accents (one folder on Windows and macOS)', async () => {
    const caseTwin = await makeZip(path.join(w.src, 'case.zip'), {
      'Tool/SKILL.md': SKILL_MD('tool'),
      'tool/scripts/run.sh': 'echo hi\n',
    });
    await expectRefused(caseTwin, /"tool" and "Tool" differ only in case or accents|"Tool" and "tool" differ only in case or accents/);
    const accents = await makeZip(path.join(w.src, 'accents.zip'), {
      'caf\u00e9/SKILL.md': SKILL_MD('cafe'),
      'cafe\u0301/notes.md': 'n\n',
    });
    await expectRefused(accents, /differ only in case or accents/);
  });

  it('a symlink entry', async () => {
    const file = writeRaw(
      'link.zip',
      rawZip([
        { name: 'SKILL.md', data: SKILL_MD('linky') },
        { name: 'secret', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 },
      ]),
    );
    await expectRefused(file, /symbolic link/);
  });

  it('a device file entry', async () => {
    const file = writeRaw(
      'dev.zip',
      rawZip([
        { name: 'SKILL.md', data: SKILL_MD('dev') },
        { name: 'null', unixMode: 0o020666 },
      ]),
    );
    await expectRefused(file, /device or special file/);
  });

  it('an encrypted entry', async () => {
    const file = writeRaw('enc.zip', rawZip([{ name: 'SKILL.md', data: Buffer.alloc(12 + 40, 7), flags: 1, uncompressedSize: 40 }]));
    await expectRefused(file, /encrypted/);
  });

  it('a zip bomb (compression ratio)', async () => {
    const file = await makeZip(path.join(w.src, 'bomb.zip'), {
      'SKILL.md': SKILL_MD('bomb'),
      'assets/zeros.bin': Buffer.alloc(50 * 1024 * 1024),
    });
    expect(fs.statSync(file).size).toBeLessThan(200 * 1024);
    await expectRefused(file, /zip bomb/);
  });

  it('a zip bomb made of many small entries', async () => {
    const entries: Record<string, Buffer> = { 'SKILL.md': SKILL_MD('many') };
    for (let i = 0; i < 40; i++) entries[`assets/z${i}.bin`] = Buffer.alloc(1024 * 1024 - 1);
    const file = await makeZip(path.join(w.src, 'many-small.zip'), entries);
    await expectRefused(file, /overall \(zip bomb\)/);
  });

  it('a zip bomb whose header lies about its size', async () => {
    const file = writeRaw(
      'liar.zip',
      rawZip([
        { name: 'SKILL.md', data: SKILL_MD('liar') },
        { name: 'assets/small.txt', data: Buffer.alloc(20 * 1024 * 1024), deflate: true, uncompressedSize: 1000 },
      ]),
    );
    await expectRefused(file, /zip bomb/);
  });

  it('more than the total size cap', async () => {
    const { getLibrary } = await import('./library-service.js');
    getLibrary(w.service.ctx).archiveLimits = { maxBytes: 64 * 1024 };
    const random = Buffer.alloc(100 * 1024);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    const file = await makeZip(path.join(w.src, 'big.zip'), { 'SKILL.md': SKILL_MD('big'), 'assets/data.bin': random });
    await expectRefused(file, /unpacks to more than/);
  });

  it('too many files', async () => {
    const entries: Record<string, string> = { 'SKILL.md': SKILL_MD('crowd').toString() };
    for (let i = 0; i < 10_001; i++) entries[`f/${i}.txt`] = '';
    const file = await makeZip(path.join(w.src, 'crowd.zip'), entries, { compress: false });
    await expectRefused(file, /10001|more than the limit of 10000/);
  });

  it('a truncated zip', async () => {
    const good = await makeZip(path.join(w.src, 'good.zip'), { 'SKILL.md': SKILL_MD('trunc'), 'a.txt': 'x'.repeat(5000) });
    const bytes = fs.readFileSync(good);
    const file = writeRaw('truncated.zip', bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expectRefused(file, /truncated or corrupt/);
  });

  it('a corrupt entry (data does not match its checksum)', async () => {
    const buf = rawZip([{ name: 'SKILL.md', data: SKILL_MD('crc') }]);
    buf[40] ^= 0xff; // inside the stored SKILL.md bytes
    const file = writeRaw('crc.zip', buf);
    await expectRefused(file, /checksum does not match/);
    expect(fs.readFileSync(path.join(w.home, 'library', 'existing', 'a.txt'), 'utf8')).toBe('keep me');
  });

  it('a file that is not a zip at all', async () => {
    await expectRefused(writeRaw('text.skill', Buffer.from('just some text, no zip here')), /truncated or corrupt/);
  });

  it('a refused archive in a batch does not stop the good ones', async () => {
    const bad = writeRaw('slip.zip', rawZip([{ name: '../x', data: Buffer.from('x') }]));
    const good = await makeZip(path.join(w.src, 'good.zip'), { 'SKILL.md': SKILL_MD('fine') });
    const out = await w.service.api.importPaths({ paths: [bad, good] });
    expect(out.results.map((r) => r.status)).toEqual(['refused', 'imported']);
    expect(fs.readdirSync(path.join(w.home, 'library')).sort()).toEqual(['existing', 'fine']);
  });
});
