import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { isInside, nativeFlavor, relativeInside } from './extpath.js';

const posix = { path: path.posix, ignoreCase: false };
const posixNoCase = { path: path.posix, ignoreCase: true };
const win = { path: path.win32, ignoreCase: true };

describe('isInside', () => {
  it('a name that begins with two dots is inside (the `startsWith("..")` mistake)', () => {
    expect(isInside('/var/tmp/ws/..notes.md', '/var/tmp/ws', posix)).toBe(true);
    expect(isInside('/var/tmp/ws/..', '/var/tmp/ws', posix)).toBe(false);
    expect(isInside('/var/tmp/ws/../x', '/var/tmp/ws', posix)).toBe(false);
    expect(relativeInside('/var/tmp/ws', '/var/tmp/ws/..notes.md', posix)).toBe('..notes.md');
    expect(relativeInside('/var/tmp/ws', '/var/tmp/ws/.../x', posix)).toBe('.../x');
  });

  it('the folder itself is inside, with or without trailing separators', () => {
    expect(isInside('/a/b', '/a/b', posix)).toBe(true);
    expect(isInside('/a/b/', '/a/b', posix)).toBe(true);
    expect(isInside('/a/b', '/a/b/', posix)).toBe(true);
    expect(isInside('/a/b//', '/a/b///', posix)).toBe(true);
    expect(relativeInside('/a/b/', '/a/b', posix)).toBe('');
    expect(relativeInside('/a/b/', '/a/b/c/d/', posix)).toBe('c/d');
  });

  it('a sibling that shares a prefix is not inside', () => {
    expect(isInside('/a/bc', '/a/b', posix)).toBe(false);
    expect(isInside('/a/bc/d', '/a/b', posix)).toBe(false);
    expect(isInside('/a/b/c', '/a/b', posix)).toBe(true);
    expect(isInside('/a', '/a/b', posix)).toBe(false);
    expect(isInside('C:\\a\\bc', 'C:\\a\\b', win)).toBe(false);
  });

  it('the root holds everything', () => {
    expect(isInside('/x/y', '/', posix)).toBe(true);
    expect(relativeInside('/', '/x/y', posix)).toBe('x/y');
    expect(isInside('C:\\x', 'C:\\', win)).toBe(true);
    expect(relativeInside('c:\\', 'C:\\x\\y', win)).toBe('x\\y');
  });

  it('case: told apart on a case-sensitive filesystem, not on one that ignores case', () => {
    expect(isInside('/Users/Me/x', '/users/me', posix)).toBe(false);
    expect(isInside('/Users/Me/x', '/users/me', posixNoCase)).toBe(true);
    // The relative path keeps the child's own spelling.
    expect(relativeInside('/users/me', '/Users/Me/Notes.md', posixNoCase)).toBe('Notes.md');
    expect(isInside('/users/mex', '/Users/Me', posixNoCase)).toBe(false);
    // A character whose lower case is longer does not shift the offsets.
    expect(relativeInside('/İ/a', '/İ/A/b', posixNoCase)).toBe('b');
    expect(isInside('/ÄB/c', '/äb', posixNoCase)).toBe(true);
  });

  it('Windows: drive letters in any case, backslashes and forward slashes', () => {
    expect(isInside('c:\\Users\\me\\x.md', 'C:\\users\\ME', win)).toBe(true);
    expect(isInside('C:/Users/me/x.md', 'C:\\Users\\me', win)).toBe(true);
    expect(relativeInside('C:\\Users\\me\\', 'C:/Users/me/a/b', win)).toBe('a\\b');
    expect(isInside('D:\\Users\\me\\x', 'C:\\Users\\me', win)).toBe(false);
    expect(isInside('C:\\Users\\me\\..notes.md', 'C:\\Users\\me', win)).toBe(true);
    expect(isInside('C:\\Users\\me\\..\\x', 'C:\\Users\\me', win)).toBe(false);
    // Windows ignores case unless told otherwise.
    expect(isInside('C:\\A\\x', 'c:\\a', { path: path.win32 })).toBe(true);
  });

  it('the native flavour follows the platform', () => {
    expect(nativeFlavor('linux')).toEqual({ path: path.posix, ignoreCase: false });
    expect(nativeFlavor('darwin')).toEqual({ path: path.posix, ignoreCase: true });
    expect(nativeFlavor('win32')).toEqual({ path: path.win32, ignoreCase: true });
  });
});
