import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HTTP } from '../contract/http.js';

/** Header the client sends the per-start token in (never a cookie: a cookie rides along on cross-site requests). */
export const TOKEN_HEADER = HTTP.tokenHeader;
/** Query parameter for the one request that cannot set headers: EventSource. */
export const TOKEN_QUERY = HTTP.tokenQuery;

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokensEqual(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface GuardRequest {
  host?: string;
  origin?: string;
  /** `Sec-Fetch-Site`, sent by every current browser. */
  fetchSite?: string;
}

/** The names this server answers to; anything else is DNS rebinding or a confused proxy. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export type GuardVerdict = { ok: true } | { ok: false; status: 403; reason: string };

/**
 * Refuses requests that do not come from our own page on our own loopback address: a foreign
 * Host (DNS rebinding), a foreign Origin (another site's script), or a browser-declared
 * cross-site fetch. Runs before the token check so static files are protected too.
 */
export function checkOrigin(req: GuardRequest, port: number): GuardVerdict {
  const hosts = allowedHosts(port);
  const host = (req.host ?? '').toLowerCase();
  if (!hosts.includes(host)) return { ok: false, status: 403, reason: 'foreign host' };
  if (req.origin !== undefined && req.origin !== '') {
    const allowed = hosts.map((h) => `http://${h}`);
    if (!allowed.includes(req.origin.toLowerCase())) return { ok: false, status: 403, reason: 'foreign origin' };
  }
  if (req.fetchSite && req.fetchSite !== 'same-origin' && req.fetchSite !== 'none') {
    return { ok: false, status: 403, reason: 'cross-site request' };
  }
  return { ok: true };
}
