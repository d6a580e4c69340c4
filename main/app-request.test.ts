// The app:// protocol's answers, without Electron, on a real renderer dir with real files and links
// around it: nothing outside the built renderer can be read, however the path is spelled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { answerAppRequest } from './app-request.js';

let tmp: string;
let renderer: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'sd-app-proto-'));
  renderer = path.join(tmp, 'dist', 'renderer');
  fs.mkdirSync(path.join(renderer, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(renderer, 'index.html'), '<!doctype html><title>SkillDock</title>');
  fs.writeFileSync(path.join(renderer, 'assets', 'app.js'), 'console.log(1)');
  // Things a hostile path would like to reach: next to the renderer, above it, and through links.
  fs.writeFileSync(path.join(tmp, 'dist', 'cli.mjs'), 'secret-cli');
  fs.writeFileSync(path.join(tmp, 'secret.txt'), 'secret');
  fs.mkdirSync(path.join(tmp, 'dist', 'renderer-evil'));
  fs.writeFileSync(path.join(tmp, 'dist', 'renderer-evil', 'x.js'), 'secret-sibling');
  fs.symlinkSync(path.join(tmp, 'secret.txt'), path.join(renderer, 'assets', 'leak.js'));
  fs.symlinkSync(tmp, path.join(renderer, 'up'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => answerAppRequest(renderer, method, url);

describe('app:// protocol', () => {
  it('serves the renderer files with their type, the headers, and the CSP on pages', () => {
    const page = get('app://skilldock/index.html');
    expect(page).toMatchObject({ status: 200, file: path.join(renderer, 'index.html') });
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.headers['Content-Security-Policy']).toContain("script-src 'self'");
    expect(page.headers['X-Content-Type-Options']).toBe('nosniff');
    const js = get('app://skilldock/assets/app.js?v=1#x');
    expect(js).toMatchObject({ status: 200, file: path.join(renderer, 'assets', 'app.js') });
    expect(js.headers['Content-Type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['Content-Security-Policy']).toBeUndefined();
    // The root and client-side routes (no extension) get the app shell.
    expect(get('app://skilldock/')).toMatchObject({ status: 200, file: path.join(renderer, 'index.html') });
    expect(get('app://skilldock/skills/pdf')).toMatchObject({ status: 200, file: path.join(renderer, 'index.html') });
    expect(get('app://skilldock/index.html', 'HEAD').status).toBe(200);
  });

  it('never answers with a file outside the renderer dir, however the path is spelled', () => {
    const hostile = [
      'app://skilldock/../secret.txt',
      'app://skilldock/../../secret.txt',
      'app://skilldock/assets/../../cli.mjs',
      'app://skilldock/%2e%2e/cli.mjs',
      'app://skilldock/%2E%2E/%2E%2E/secret.txt',
      'app://skilldock/..%2fcli.mjs',
      'app://skilldock/..%2F..%2Fsecret.txt',
      'app://skilldock/%2e%2e%2fcli.mjs',
      'app://skilldock/assets%2f..%2f..%2fcli.mjs',
      'app://skilldock/..%5ccli.mjs',
      'app://skilldock/assets%5c..%5c..%5ccli.mjs',
      'app://skilldock/%252e%252e%252fcli.mjs',
      'app://skilldock/index.html%00.js',
      'app://skilldock/%2fetc%2fpasswd',
      'app://skilldock//etc/passwd',
      `app://skilldock/${encodeURIComponent(path.join(tmp, 'secret.txt'))}`,
      'app://skilldock/C:%5cWindows%5cwin.ini',
      'app://skilldock/C:/Windows/win.ini',
      'app://skilldock/../renderer-evil/x.js',
      'app://skilldock/%2e%2e/renderer-evil/x.js',
      'app://skilldock/assets/leak.js',
      'app://skilldock/up/secret.txt',
      'app://skilldock/up/dist/cli.mjs',
      'app://skilldock/%',
      'app://skilldock/%E0%A4%A',
    ];
    for (const url of hostile) {
      const a = get(url);
      if (a.status === 200) {
        // Only the app shell may come back (a normalised path that lands inside the renderer).
        expect(a.file, url).toBe(path.join(renderer, 'index.html'));
      } else expect([403, 404], url).toContain(a.status);
    }
    // The spellings that decode to a parent segment, a backslash, NUL, a drive or a link out are refused
    // outright, not looked up.
    for (const url of [
      // lands back inside after normalising, yet a `..` segment is refused on its own, not resolved
      'app://skilldock/assets/..%2fassets/app.js',
      'app://skilldock/..%2fcli.mjs',
      'app://skilldock/%2e%2e%2fcli.mjs',
      'app://skilldock/..%5ccli.mjs',
      'app://skilldock/index.html%00.js',
      'app://skilldock/C:%5cWindows%5cwin.ini',
      'app://skilldock/C:/Windows/win.ini',
      'app://skilldock/assets/leak.js',
      'app://skilldock/up/secret.txt',
      'app://skilldock/%',
    ]) {
      expect(get(url).status, url).toBe(403);
    }
  });

  it('answers only the app origin, and only reads', () => {
    for (const url of [
      'app://evil/index.html',
      'app://skilldock.evil/index.html',
      'app://skilldock@evil/index.html',
      'app://x@skilldock/index.html',
      'app://skilldock:1234/index.html',
      'https://skilldock/index.html',
      'file:///index.html',
      'not a url',
    ]) {
      expect(get(url).status, url).toBe(404);
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) expect(get('app://skilldock/index.html', method).status, method).toBe(405);
    const refused = get('app://skilldock/..%2fcli.mjs');
    expect(refused).not.toHaveProperty('file');
    expect(refused.headers['X-Content-Type-Options']).toBe('nosniff');
  });
});
