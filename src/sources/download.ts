import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fail } from '../errors.js';
import { extractArchive } from '../library/archive.js';
import { extractTarGz, isTarGz } from '../library/tar.js';
import type { ParsedSource } from './parse.js';
import { SOURCE_LIMITS } from './limits.js';

// A direct archive URL (.zip, .skill, .tar.gz, .tgz) as a skill source: downloaded over http(s)
// (or read from a file:// path) into SkillDock's staging with a size cap, a time limit and a
// bounded number of redirects, then unpacked with the archive import's refusals and the limits of
// every source (limits.ts: 25 MiB unpacked, 1,000 files; git sources are held to them too) and a
// 10 MiB download, as the reference `skills` CLI does. The archive's
// "commit" is the SHA-256 of its bytes: a later check downloads it again and compares.

export const DOWNLOAD_LIMITS = {
  maxDownloadBytes: 10 * 1024 * 1024,
  maxUnpackedBytes: SOURCE_LIMITS.maxBytes,
  maxFiles: SOURCE_LIMITS.maxFiles,
  maxRedirects: 5,
  /** No byte for this long (connecting included): give up. */
  idleMs: 30_000,
  /** The whole download. */
  totalMs: 120_000,
};
export type DownloadLimits = typeof DOWNLOAD_LIMITS;

const mb = (n: number) => Math.round(n / 1048576);

type Why = 'failed' | 'http' | 'too-big' | 'timeout' | 'redirects' | 'bad-redirect';

function failed(source: string, why: Why, params: Record<string, string | number> = {}): Error {
  return fail('io', `sources.download.${why}` as const, { source, ...params });
}

/** GET `url` into `to`, following redirects; returns the bytes' SHA-256. */
/** `signal` ends the request (a caller's deadline). */
function get(source: string, url: string, to: string, lim: DownloadLimits, hops: number, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return reject(failed(source, 'bad-redirect', { to: url }));
    }
    const lib = u.protocol === 'https:' ? https : u.protocol === 'http:' ? http : null;
    if (!lib) return reject(failed(source, 'bad-redirect', { to: url }));
    let settled = false;
    const done = (err: Error | null, digest?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      if (err) {
        req.destroy();
        fs.rmSync(to, { force: true });
        reject(err);
      } else resolve(digest!);
    };
    const total = setTimeout(() => done(failed(source, 'timeout', { seconds: Math.round(lim.totalMs / 1000) })), lim.totalMs);
    const req = lib.get(u, { headers: { 'user-agent': 'skilldock', accept: '*/*' }, ...(signal ? { signal } : {}) }, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hops >= lim.maxRedirects) return done(failed(source, 'redirects', { max: lim.maxRedirects }));
        const next = new URL(res.headers.location, u);
        // Never from https down to plain http.
        if (u.protocol === 'https:' && next.protocol !== 'https:') return done(failed(source, 'bad-redirect', { to: next.origin }));
        settled = true;
        clearTimeout(total);
        get(source, next.toString(), to, lim, hops + 1, signal).then(resolve, reject);
        return;
      }
      if (status !== 200) {
        res.resume();
        return done(failed(source, 'http', { status }));
      }
      const declared = Number(res.headers['content-length'] ?? NaN);
      if (declared > lim.maxDownloadBytes) {
        res.resume();
        return done(failed(source, 'too-big', { mb: mb(lim.maxDownloadBytes) }));
      }
      const hash = createHash('sha256');
      const file = fs.createWriteStream(to, { flags: 'wx' });
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > lim.maxDownloadBytes) return done(failed(source, 'too-big', { mb: mb(lim.maxDownloadBytes) }));
        hash.update(chunk);
      });
      res.on('error', (e) => done(failed(source, 'failed', { detail: e.message })));
      res.on('aborted', () => done(failed(source, 'failed', { detail: 'connection closed early' })));
      file.on('error', (e) => done(failed(source, 'failed', { detail: e.message })));
      file.on('finish', () => {
        if (!Number.isNaN(declared) && bytes !== declared) return done(failed(source, 'failed', { detail: 'connection closed early' }));
        done(null, hash.digest('hex'));
      });
      res.pipe(file);
    });
    req.setTimeout(lim.idleMs, () => done(failed(source, 'timeout', { seconds: Math.round(lim.idleMs / 1000) })));
    req.on('error', (e) => done(failed(source, 'failed', { detail: (e as NodeJS.ErrnoException).code ?? e.message })));
  });
}

/** Copy a file:// archive (a regular file only, capped like a download). */
function readLocal(source: string, file: string, to: string, lim: DownloadLimits): string {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (err) {
    throw failed(source, 'failed', { detail: (err as NodeJS.ErrnoException).code ?? String(err) });
  }
  if (!st.isFile()) throw failed(source, 'failed', { detail: 'not a file' });
  if (st.size > lim.maxDownloadBytes) throw failed(source, 'too-big', { mb: mb(lim.maxDownloadBytes) });
  const bytes = fs.readFileSync(file);
  fs.writeFileSync(to, bytes, { flag: 'wx' });
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Download (or read) the archive of `p` into `scratch` and unpack it into `<scratch>/repo`.
 * Returns the unpacked folder and the archive's SHA-256 (its "commit").
 */
export async function fetchArchive(
  p: ParsedSource,
  scratch: string,
  lim: DownloadLimits = DOWNLOAD_LIMITS,
  signal?: AbortSignal,
): Promise<{ dir: string; commit: string }> {
  let base = path.posix.basename(new URL(p.url).pathname);
  try {
    base = decodeURIComponent(base);
  } catch {
    // keep it encoded
  }
  // eslint-disable-next-line no-control-regex
  if (!base || base === '.' || base === '..' || /[\\/\u0000-\u001f]/.test(base)) base = 'archive.zip';
  const file = path.join(scratch, isTarGz(base) ? 'archive.tar.gz' : 'archive.zip');
  const digest = p.url.startsWith('file://')
    ? readLocal(p.given, decodeURIComponent(new URL(p.url).pathname), file, lim)
    : await get(p.given, p.url, file, lim, 0, signal);
  const dir = path.join(scratch, 'repo');
  const limits = { maxBytes: lim.maxUnpackedBytes, maxFiles: lim.maxFiles };
  // Refusals name the archive as the user knows it, not the staging file.
  const named = path.join(scratch, base);
  fs.renameSync(file, named);
  if (isTarGz(base)) extractTarGz(named, dir, limits);
  else await extractArchive(named, dir, { limits });
  // Release archives wrap everything in one folder named after the version (`repo-1.2/`): its
  // inside is the source's root, so paths stay the same from one version to the next.
  const top = fs.readdirSync(dir, { withFileTypes: true });
  const only = top.length === 1 && top[0]!.isDirectory() ? path.join(dir, top[0]!.name) : null;
  return { dir: only ?? dir, commit: digest };
}
