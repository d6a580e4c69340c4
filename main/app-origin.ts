/** The origin the window's pages are served from (see app-protocol.ts); IPC trusts only it. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://skilldock`;
