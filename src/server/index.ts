// The browser front door's public surface (the CLI's `serve`, and main/ for the static-file rules).
export { startServer, type RunningServer } from './server.js';
export { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, contentType, resolveStatic } from './static-files.js';
export { findRendererDir, openInBrowser } from './locate.js';
