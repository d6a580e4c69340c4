export { startServer, type EngineLike, type RunningServer, type ServerOptions } from './server.js';
export { TOKEN_HEADER, TOKEN_QUERY, checkOrigin, allowedHosts } from './guard.js';
export { CONTENT_SECURITY_POLICY, resolveStatic } from './static-files.js';
export { UploadStaging, safeRelativePath, DEFAULT_UPLOAD_LIMITS } from './upload.js';
export { findRendererDir, openInBrowser, openerCommand } from './locate.js';
