import fs from 'node:fs';
import { protocol } from 'electron';
import { APP_SCHEME } from './app-origin.js';
import { answerAppRequest } from './app-request.js';

/**
 * The window loads `app://skilldock/` instead of file://: a real origin to check IPC senders
 * against and to pin the CSP to, and no reach into the rest of the disk (app-request.ts decides
 * what may be read).
 */
export { APP_ORIGIN } from './app-origin.js';

/** Must run before `app` is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const answer = answerAppRequest(rendererDir, request.method, request.url);
    if (answer.status !== 200) return new Response(answer.body, { status: answer.status, headers: answer.headers });
    const body = request.method === 'HEAD' ? null : await fs.promises.readFile(answer.file);
    return new Response(body, { headers: answer.headers });
  });
}
