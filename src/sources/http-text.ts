import http from 'node:http';
import https from 'node:https';
import { fail } from '../errors.js';

// GET for catalogs on the web (a well-known index, a search API): https only (plain http only on
// this computer, for a local server), bounded in time and size, no keep-alive (no socket outlives
// the call), at most 3 redirects and never from https down to http.

export function catalogTimeoutMs(): number {
  const n = Number(process.env.SKILLDOCK_CATALOG_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : 15_000;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Is `url` an address a web catalog may be read from? */
export function webUrlOk(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
}

export interface Fetched {
  status: number;
  text: string;
}

function once(url: string, maxBytes: number, deadline: number, signal?: AbortSignal): Promise<Fetched & { location?: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const lib = u.protocol === 'https:' ? https : http;
    const left = Math.max(1, deadline - Date.now());
    const seconds = Math.round(catalogTimeoutMs() / 100) / 10;
    const req = lib.get(u, { agent: false, headers: { accept: 'application/json, text/plain, */*', connection: 'close' } }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        resolve({ status, text: '', location: new URL(res.headers.location, u).href });
        return;
      }
      const chunks: Buffer[] = [];
      let got = 0;
      res.on('data', (c: Buffer) => {
        got += c.length;
        if (got > maxBytes) {
          req.destroy();
          reject(fail('io', 'discover.too-big', { url, mb: Math.round((maxBytes / 1048576) * 10) / 10 }));
        } else chunks.push(c);
      });
      res.on('end', () => resolve({ status, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => reject(fail('io', 'discover.unreachable', { url, detail: e.message })));
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(fail('io', 'discover.timeout', { url, seconds }));
    }, left);
    const onAbort = () => {
      req.destroy();
      reject(fail('io', 'discover.timeout', { url, seconds }));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (e) => reject(fail('io', 'discover.unreachable', { url, detail: e.message })));
    req.on('close', () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    });
  });
}

/** GET `url`; a status other than 200 is refused with the status. */
export async function getText(url: string, maxBytes: number, signal?: AbortSignal): Promise<string> {
  const deadline = Date.now() + catalogTimeoutMs();
  let at = url;
  for (let hop = 0; hop <= 3; hop++) {
    if (!webUrlOk(at)) throw fail('bad-request', 'discover.bad-url', { url: at, kind: 'web' });
    const r = await once(at, maxBytes, deadline, signal);
    if (r.location) {
      if (at.startsWith('https:') && !r.location.startsWith('https:'))
        throw fail('refused', 'discover.bad-url', { url: r.location, kind: 'web' });
      at = r.location;
      continue;
    }
    if (r.status !== 200) throw fail('io', 'discover.http', { url: at, status: r.status });
    return r.text;
  }
  throw fail('io', 'discover.http', { url: at, status: 'redirect' });
}
