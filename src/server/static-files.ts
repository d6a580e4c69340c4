import fs from 'node:fs';
import path from 'node:path';
import { isInside } from '../base/extpath.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The page may load code only from itself and talk only to itself. Inline styles stay allowed
 * because the UI kit sets them at runtime; inline scripts, eval, plugins, framing and form posts
 * elsewhere are not.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Headers every response carries, API or not. */
export const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export type StaticLookup = { kind: 'file'; file: string; size: number } | { kind: 'refused' } | { kind: 'missing' };

/**
 * Map a URL path to a file inside `root`, or refuse. Decoding happens once, then any `..`,
 * backslash, NUL or absolute segment is refused outright rather than normalised away, and the
 * real path (links followed) must still be inside the real root.
 */
export function resolveStatic(root: string, urlPath: string): StaticLookup {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: 'refused' };
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return { kind: 'refused' };
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '..' || s === '.' || /^[a-zA-Z]:$/.test(s))) return { kind: 'refused' };
  let realRoot: string;
  try {
    realRoot = fs.realpathSync(root);
  } catch {
    return { kind: 'missing' };
  }
  const rel = segments.join('/');
  const candidates = rel === '' ? ['index.html'] : [rel];
  // Client-side routes (no extension) get the app shell, as single-page apps expect.
  if (rel !== '' && path.extname(rel) === '') candidates.push('index.html');
  for (const candidate of candidates) {
    const full = path.join(realRoot, candidate);
    let real: string;
    try {
      real = fs.realpathSync(full);
    } catch {
      continue;
    }
    if (!isInside(real, realRoot)) return { kind: 'refused' };
    const stat = fs.statSync(real);
    if (stat.isFile()) return { kind: 'file', file: real, size: stat.size };
  }
  return { kind: 'missing' };
}
