import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SkillDockError } from '../errors.js';
import { extractTarGz } from './tar.js';

// The tar reader on its own: real archives from the system's GNU tar read back byte for byte, and
// hostile headers that hide behind the format's extensions (pax paths, GNU long names, base-256
// sizes, a second layer of compression, a cut-off archive) refused before anything is written.

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-tar-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A ustar header; `sizeField` replaces the octal size (a base-256 one, say). */
function header(name: string, type: string, size: number, sizeField?: Buffer): Buffer {
  const h = Buffer.alloc(512);
  const fields: Array<[number, string]> = [
    [0, name],
    [100, '0000644\0'],
    [108, '0000000\0'],
    [116, '0000000\0'],
    [124, `${size.toString(8).padStart(11, '0')}\0`],
    [136, '00000000000\0'],
    [148, ' '.repeat(8)], // the checksum counts its own field as spaces
    [156, type],
    [257, 'ustar\u000000'],
  ];
  for (const [at, text] of fields) h.write(text, at, 'utf8');
  sizeField?.copy(h, 124);
  const sum = h.reduce((acc, b) => acc + b, 0);
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc((512 - (b.length % 512)) % 512)]);
const entry = (name: string, type: string, body: Buffer) => Buffer.concat([header(name, type, body.length), pad(body)]);
const paxRecord = (key: string, value: string) => {
  const rest = ` ${key}=${value}\n`;
  let len = rest.length + 1;
  while (String(len).length + rest.length !== len) len++;
  return `${len}${rest}`;
};
const END = Buffer.alloc(1024);

function write(name: string, tar: Buffer, gzip = true): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, gzip ? zlib.gzipSync(tar) : tar);
  return file;
}

function why(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SkillDockError);
    return ((err as SkillDockError).msg?.params?.why as { key: string }).key;
  }
  return undefined;
}

describe('extractTarGz', () => {
  it('reads what GNU tar writes (gnu and pax, long names, modes, multi-block and empty files)', () => {
    const src = path.join(dir, 'src');
    const long = `skills/${'deep-folder-name/'.repeat(8)}tool`;
    fs.mkdirSync(path.join(src, long), { recursive: true });
    const big = Buffer.from(Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join(''));
    fs.writeFileSync(path.join(src, long, 'SKILL.md'), big);
    fs.writeFileSync(path.join(src, long, 'run.sh'), 'echo hi\n', { mode: 0o755 });
    fs.writeFileSync(path.join(src, long, 'empty.txt'), '');
    for (const format of ['gnu', 'pax']) {
      const out = path.join(dir, `${format}.tar.gz`);
      execFileSync('tar', [`--format=${format}`, '-czf', out, '-C', src, 'skills']);
      const dest = path.join(dir, `out-${format}`);
      const plan = extractTarGz(out, dest);
      expect(plan.files.map((f) => f.name).sort()).toEqual([`${long}/SKILL.md`, `${long}/empty.txt`, `${long}/run.sh`]);
      expect(fs.readFileSync(path.join(dest, long, 'SKILL.md')).equals(big)).toBe(true);
      expect(fs.readFileSync(path.join(dest, long, 'empty.txt'), 'utf8')).toBe('');
      expect(fs.statSync(path.join(dest, long, 'run.sh')).mode & 0o777).toBe(0o755);
      expect(fs.statSync(path.join(dest, long, 'SKILL.md')).mode & 0o777).toBe(0o644);
    }
  });

  it('refuses hostile names hidden in a pax path or a GNU long name', () => {
    const pax = Buffer.from(paxRecord('path', '../../evil'));
    const viaPax = Buffer.concat([entry('PaxHeaders/x', 'x', pax), entry('innocent.txt', '0', Buffer.from('x')), END]);
    expect(why(() => extractTarGz(write('pax.tar.gz', viaPax), path.join(dir, 'o1')))).toBe('archive.zip-slip');
    const viaLong = Buffer.concat([
      entry('././@LongLink', 'L', Buffer.from('/etc/evil\0')),
      entry('innocent.txt', '0', Buffer.from('x')),
      END,
    ]);
    expect(why(() => extractTarGz(write('long.tar.gz', viaLong), path.join(dir, 'o2')))).toBe('archive.absolute');
    for (const o of ['o1', 'o2']) expect(fs.existsSync(path.join(dir, o))).toBe(false);
    expect(fs.existsSync(path.join(dir, '..', 'evil'))).toBe(false);
  });

  it('refuses a base-256 size, an oversized meta header, a cut-off archive and a second layer of compression', () => {
    const b256 = Buffer.alloc(12);
    b256[0] = 0x80;
    b256[6] = 0x10; // 2^44 bytes
    const huge = Buffer.concat([header('a/SKILL.md', '0', 0, b256), END]);
    expect(why(() => extractTarGz(write('b256.tar.gz', huge), path.join(dir, 'o1')))).toBe('archive.too-big');
    const bigMeta = Buffer.from(paxRecord('comment', 'x'.repeat(70 * 1024)));
    const meta = Buffer.concat([entry('PaxHeaders/z', 'x', bigMeta), entry('a.txt', '0', Buffer.from('x')), END]);
    expect(why(() => extractTarGz(write('meta.tar.gz', meta), path.join(dir, 'o2')))).toBe('archive.tar-corrupt');
    const cut = entry('a.txt', '0', Buffer.from('x'));
    expect(why(() => extractTarGz(write('cut.tar.gz', cut), path.join(dir, 'o3')))).toBe('archive.tar-corrupt');
    const body = entry('a.txt', '0', Buffer.alloc(2000, 0x61));
    expect(why(() => extractTarGz(write('short.tar.gz', body.subarray(0, 1024)), path.join(dir, 'o4')))).toBe('archive.tar-corrupt');
    // a gzip inside the gzip: 1 GiB of zeros would come out of the inner one
    const inner = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(why(() => extractTarGz(write('nested.tar.gz', inner), path.join(dir, 'o5'), { maxBytes: 1024 * 1024 }))).toBe(
      'archive.tar-corrupt',
    );
    for (const o of ['o1', 'o2', 'o3', 'o4', 'o5']) expect(fs.existsSync(path.join(dir, o))).toBe(false);
  });
});
