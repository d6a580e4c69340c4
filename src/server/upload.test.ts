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
  it.each(['../x', 'a/../../x', '/etc/x', 'a\\b', 'a//b', './a', 'C:/x', '', 'a/\u0001b', 'a/'.repeat(40) + 'x'])('refuses %j', (rel) => {
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
