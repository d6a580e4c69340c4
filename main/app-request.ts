import path from 'node:path';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, contentType, resolveStatic } from '../src/server/index.js';
import { APP_ORIGIN } from './app-origin.js';

// What the `app://skilldock/` protocol answers, as a plain function (no Electron), so confinement
// to the built renderer is tested here: app-protocol.ts only reads the file it is given.

export type AppAnswer =
  | { status: 200; file: string; headers: Record<string, string> }
  | { status: 403 | 404 | 405; body: string; headers: Record<string, string> };

const refusal = (status: 403 | 404 | 405, body: string): AppAnswer => ({ status, body, headers: { ...SECURITY_HEADERS } });

/**
 * The file of `rendererDir` a request may read, or a refusal. Only GET and HEAD on the app origin
 * itself; the path is decoded once and any `..`, backslash, NUL or drive segment is refused rather
 * than normalised away, and the real path (links followed) must stay inside the real renderer dir
 * (`resolveStatic`, shared with the browser server). Pages get the CSP.
 */
export function answerAppRequest(rendererDir: string, method: string, requestUrl: string): AppAnswer {
  if (method !== 'GET' && method !== 'HEAD') return refusal(405, 'Method not allowed');
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return refusal(404, 'Not found');
  }
  if (url.username || url.password || `${url.protocol}//${url.host}` !== APP_ORIGIN) return refusal(404, 'Not found');
  const found = resolveStatic(rendererDir, url.pathname);
  if (found.kind === 'refused') return refusal(403, 'Forbidden');
  if (found.kind === 'missing') return refusal(404, 'Not found');
  const headers: Record<string, string> = { ...SECURITY_HEADERS, 'Content-Type': contentType(found.file) };
  if (path.extname(found.file) === '.html') headers['Content-Security-Policy'] = CONTENT_SECURITY_POLICY;
  return { status: 200, file: found.file, headers };
}
