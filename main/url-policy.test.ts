// Where the desktop window may go, judged without Electron: window.ts applies exactly these
// verdicts to will-navigate, will-redirect and window.open.
import { describe, expect, it } from 'vitest';
import { MAX_EXTERNAL_URL, isAppUrl, isExternalWebUrl, judgeNavigation, judgeRedirect, judgeWindowOpen } from './url-policy.js';

// URLs a page (or a skill's Markdown shown in it) could try to reach; none may load in the window.
const HOSTILE = [
  'file:///etc/passwd',
  'file://host/share/x',
  'javascript:alert(1)',
  '\tjavascript:alert(1)',
  'JavaScript://%0aalert(1)',
  'data:text/html,<script>alert(1)</script>',
  'blob:app://skilldock/0b3e',
  'about:blank',
  'chrome://settings',
  'devtools://devtools/bundled/inspector.html',
  'smb://host/share',
  'vscode://file/etc/passwd',
  'ms-settings:',
  'app://skilldock.evil/index.html',
  'app://evil/index.html',
  'app://skilldock@evil/index.html',
  'app://skilldock:8080/index.html',
  'app://skilldock./index.html',
  'app://SKILLDOCK/index.html',
  'https://skilldock/',
  'http://skilldock/index.html',
  'nonsense',
  '',
];

describe('URL policy', () => {
  it('keeps the window on the app origin, whatever the path', () => {
    for (const u of [
      'app://skilldock/',
      'app://skilldock/index.html',
      'app://skilldock/skills/pdf?x=1#top',
      'app://skilldock/../index.html',
    ]) {
      expect(isAppUrl(u), u).toBe(true);
      expect(judgeNavigation(u), u).toBe('stay');
      expect(judgeRedirect(u), u).toBe('stay');
    }
    for (const u of HOSTILE) {
      expect(isAppUrl(u), u).toBe(false);
      expect(judgeRedirect(u), u).toBe('refuse');
      expect(judgeNavigation(u), u).not.toBe('stay');
    }
  });

  it('hands only plain http and https links to the OS browser', () => {
    for (const u of ['https://agentskills.io/specification', 'http://example.com', 'HTTPS://AGENTSKILLS.IO/x', 'https://[::1]:8443/']) {
      expect(isExternalWebUrl(u), u).toBe(true);
      expect(judgeNavigation(u), u).toBe('open-external');
      expect(judgeWindowOpen(u), u).toBe('open-external');
      expect(judgeRedirect(u), u).toBe('refuse'); // a redirect never leaves the app, not even to the web
    }
    for (const u of HOSTILE.filter((x) => !/^https?:/.test(x))) {
      expect(isExternalWebUrl(u), u).toBe(false);
      expect(judgeNavigation(u), u).toBe('refuse');
      expect(judgeWindowOpen(u), u).toBe('refuse');
    }
  });

  it('refuses web links that hide where they go or are absurdly long', () => {
    for (const u of [
      'https://agentskills.io@evil.example/',
      'https://user:pass@example.com/',
      'http://:x@example.com/',
      `https://example.com/${'a'.repeat(MAX_EXTERNAL_URL)}`,
    ]) {
      expect(isExternalWebUrl(u), u.slice(0, 60)).toBe(false);
      expect(judgeWindowOpen(u), u.slice(0, 60)).toBe('refuse');
      expect(judgeNavigation(u), u.slice(0, 60)).toBe('refuse');
    }
    expect(isExternalWebUrl(`https://example.com/${'a'.repeat(MAX_EXTERNAL_URL - 40)}`)).toBe(true);
  });

  it('never opens a new app window, even for the app origin', () => {
    expect(judgeWindowOpen('app://skilldock/index.html')).toBe('refuse');
  });
});
