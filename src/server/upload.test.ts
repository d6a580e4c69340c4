import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UploadStaging, makeDirsInside, safeRelativePath } from './upload.js';

// The upload path checks on their own, without the HTTP server in front of them.

let tmp: string;
beforeEach(() => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sd-upload-')));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('safeRelativePath', () => {
  it.each([
    '../x',
    'a/../../x',
    '/etc/x',
    'a\\b',
    'a//b',
    './a',
    'C:/x',
    'C:x/y', // drive-relative
    'a/b:stream',
    'a/\u202egnp.exe', // right-to-left override: reads as exe.png
    'a/\u2066b',
    '',
    'a/\u0001b',
    'a/'.repeat(40) + 'x',
  ])('refuses %j', (rel) => {
    expect(() => safeRelativePath(rel)).toThrow(/Upload path/);
  });
  it('keeps a plain relative path', () => {
    expect(safeRelativePath('skill/scripts/run.sh')).toEqual(['skill', 'scripts', 'run.sh']);
  });
});

describe('containment before any write', () => {
  it('a link planted in the batch is refused before anything is created through it', async () => {
    const staging = new UploadStaging(path.join(tmp, 'staging'));
    const { batch } = staging.begin();
    const outside = path.join(tmp, 'outside');
    fs.mkdirSync(outside);
    fs.symlinkSync(outside, path.join(tmp, 'staging', batch, 'evil'));
    await expect(staging.writeFile(batch, 'evil/deep/er/x.txt', Readable.from([Buffer.from('x')]))).rejects.toThrow(/escapes/);
    // the recursive mkdir this replaces would have made outside/deep/er before the check
    expect(fs.readdirSync(outside)).toEqual([]);
  });

  it('makeDirsInside refuses a file or link on the way and creates nothing past it', () => {
    fs.writeFileSync(path.join(tmp, 'file'), 'x');
    expect(() => makeDirsInside(tmp, ['file', 'sub'])).toThrow(/escapes/);
    fs.symlinkSync(os.tmpdir(), path.join(tmp, 'link'));
    expect(() => makeDirsInside(tmp, ['link', 'sd-never-made'])).toThrow(/escapes/);
    expect(fs.existsSync(path.join(os.tmpdir(), 'sd-never-made'))).toBe(false);
    makeDirsInside(tmp, ['a', 'b']);
    expect(fs.statSync(path.join(tmp, 'a', 'b')).isDirectory()).toBe(true);
  });
});

describe('names that are one file on another disk', () => {
  it('refuses a SKILL.md twin and a folder twin that differ only in case or accents, naming only the upload paths', async () => {
    const staging = new UploadStaging(path.join(tmp, 'staging'));
    const { batch } = staging.begin();
    const put = (rel: string) => staging.writeFile(batch, rel, Readable.from([Buffer.from('x')]));
    await put('tool/SKILL.md');
    await put('Caf\u00e9/SKILL.md');
    for (const twin of ['tool/skill.md', 'Tool/other.txt', 'TOOL/SKILL.md', 'Cafe\u0301/x.txt', 'caf\u00c9/x.txt']) {
      const err = await put(twin).then(
        () => null,
        (e: Error & { code?: string }) => e,
      );
      expect(err, twin).not.toBeNull();
      expect(err!.code, twin).toBe('refused');
      expect(err!.message).toMatch(/only in case or accents/);
      expect(err!.message).not.toContain(tmp);
    }
    // the batch holds only the first spellings
    const batchDir = path.join(tmp, 'staging', batch);
    expect(fs.readdirSync(batchDir).sort()).toEqual(['Caf\u00e9', 'tool']);
    expect(fs.readdirSync(path.join(batchDir, 'tool'))).toEqual(['SKILL.md']);
  });
});
