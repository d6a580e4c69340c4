import fs from 'node:fs';
import path from 'node:path';
import { protocol } from 'electron';
import { APP_SCHEME } from './app-origin.js';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, contentType, resolveStatic } from '../src/server/index.js';

/**
 * The window loads `app://skilldock/` instead of file://: a real origin to check IPC senders
 * against and to pin the CSP to, and no reach into the rest of the disk.
 */
export { APP_ORIGIN } from './app-origin.js';

/** Must run before `app` is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== 'skilldock') return new Response('Not found', { status: 404 });
    const found = resolveStatic(rendererDir, url.pathname);
    if (found.kind !== 'file')
      return new Response(found.kind === 'refused' ? 'Forbidden' : 'Not found', { status: found.kind === 'refused' ? 403 : 404 });
    const body = await fs.promises.readFile(found.file);
    return new Response(body, {
      headers: {
        ...SECURITY_HEADERS,
        'Content-Type': contentType(found.file),
        ...(path.extname(found.file) === '.html' ? { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } : {}),
      },
    });
  });
}
