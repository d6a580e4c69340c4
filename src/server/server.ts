import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ErrorCode, MessageRef, Result, SkillDockEvent } from '../contract/index.js';
import { formatMessage } from '../contract/messages-text.js';
import { HTTP } from '../contract/http.js';
import { fail, toErrorInfo } from '../errors.js';
import { TOKEN_HEADER, TOKEN_QUERY, checkOrigin, newToken, tokensEqual } from './guard.js';
import { CONTENT_SECURITY_POLICY, SECURITY_HEADERS, contentType, resolveStatic } from './static-files.js';
import { DEFAULT_UPLOAD_LIMITS, UploadStaging, sizeLimit, type UploadLimits } from './upload.js';

/** What the server needs from the engine: the same two entry points every front door uses. */
export interface EngineLike {
  call(method: string, input: unknown): Promise<Result<unknown>>;
  on(listener: (event: SkillDockEvent) => void): () => void;
  /**
   * Long-lived mode (`SkillDockService.live`): the catalog watched, home files synced from other
   * processes. Without it the server asks for the catalog watch through `watchCatalog`.
   */
  live?(): Promise<unknown>;
}

export interface ServerOptions {
  service: EngineLike;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The built renderer (`dist/renderer`); null or missing serves a short notice instead. */
  rendererDir?: string | null;
  /** `<home>/staging`. */
  stagingDir: string;
  uploadLimits?: Partial<UploadLimits>;
  /** Fixed token for tests; a random one per start otherwise. */
  token?: string;
  /** SSE keep-alive comment interval. */
  heartbeatMs?: number;
  /**
   * Keep the catalog's default roots fresh from file events while serving (default true, through
   * `service.live()` when the engine has it), so a lookup or a launch need not re-check every skill
   * folder. A failure is reported, never fatal.
   */
  watchCatalog?: boolean;
  /** Where a non-fatal startup problem goes (default: stderr). */
  warn?: (message: string) => void;
}

export interface RunningServer {
  port: number;
  origin: string;
  token: string;
  /** The URL to open: the token travels in the fragment, which browsers never send to a server. */
  url: string;
  /** Settles once the catalog watch is in place (or failed, or was not asked for); never rejects. */
  catalogWatch: Promise<void>;
  close(): Promise<void>;
}

/** Go live (catalog watched for the default query); a failure is reported and the server runs on. */
function goLive(service: EngineLike, warn: (message: string) => void): Promise<void> {
  const report = (why: string) => warn(`SkillDock: could not watch the skill roots (${why}); every lookup re-checks them instead.`);
  const started = service.live
    ? service.live().then(() => undefined)
    : service.call('watchCatalog', {}).then((r) => {
        if (!r.ok) report(r.error.message);
      });
  return started.catch((err: unknown) => report(err instanceof Error ? err.message : String(err)));
}

const MAX_JSON_BYTES = 16 * 1024 * 1024;
const HOST = '127.0.0.1';

const STATUS: Record<ErrorCode, number> = {
  'bad-request': 400,
  unauthorized: 401,
  'not-found': 404,
  conflict: 409,
  refused: 422,
  unsupported: 501,
  io: 500,
  'corrupt-data': 500,
  internal: 500,
};

function send(res: http.ServerResponse, status: number, body: string | Buffer, type: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'Content-Length': String(Buffer.byteLength(body)),
    ...extra,
  });
  res.end(body);
}

/**
 * The engine's answer to a call it took: 200 whenever the engine itself said no (a refusal, a
 * conflict, a missing skill, bad input), with `ok: false` and the keyed error in the body, which is
 * all the page reads. Browsers log every 4xx as a console error ("Failed to load resource"): a walk
 * through the app logged 23 of them for refusals the page showed as designed, which hid real
 * failures. Only a failure of the engine (internal, I/O, damaged data) keeps its 5xx status; the
 * HTTP layer's own refusals (token, origin, route, method, body) keep theirs (sendError).
 */
function answerStatus(result: Result<unknown>): number {
  if (result.ok) return 200;
  const status = STATUS[result.error.code] ?? 500;
  return status >= 500 && result.error.code !== 'unsupported' ? status : 200;
}

function sendResult(res: http.ServerResponse, result: Result<unknown>): void {
  send(res, answerStatus(result), JSON.stringify(result), 'application/json; charset=utf-8');
}

/** An error answer: the English message for any client, and the key the page words it by. */
function sendError(
  res: http.ServerResponse,
  status: number,
  code: ErrorCode,
  msg: MessageRef | undefined,
  message = msg ? formatMessage(msg) : code,
  extra?: Record<string, string>,
): void {
  const error = msg ? { code, message, msg } : { code, message };
  send(res, status, JSON.stringify({ ok: false, error }), 'application/json; charset=utf-8', extra);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  // A JSON content type cannot be sent cross-origin without a preflight we never approve.
  if (type !== 'application/json') throw fail('bad-request', 'http.json-only');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BYTES) throw fail('refused', 'http.body-too-large', { limit: sizeLimit(MAX_JSON_BYTES) });
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw fail('bad-request', 'http.bad-json');
  }
}

/** The contract method that imports paths, staged uploads among them. */
const IMPORT_ROUTES = new Set(['importPaths']);

/** The paths an import call names, whatever the body holds. */
function stagedPaths(body: unknown): unknown[] {
  const paths = (body as { paths?: unknown } | null)?.paths;
  return Array.isArray(paths) ? paths : [];
}

/** The import stopped at conflicts it was given no answers for: the client asks, then runs it again. */
function awaitsAnswers(body: unknown, result: Result<unknown>): boolean {
  const b = (body ?? {}) as { resolutions?: unknown; onConflict?: unknown };
  const conflicts = result.ok ? (result.value as { conflicts?: unknown }).conflicts : 0;
  return typeof conflicts === 'number' && conflicts > 0 && b.resolutions === undefined && b.onConflict === undefined;
}

const NOT_BUILT = 'SkillDock: the browser UI is not built yet. Run `npm run build:renderer` (or `npm run build`) and reload.\n';

/** Start the browser UI server on 127.0.0.1 only. */
/** What one running server's handlers share. */
interface Served {
  options: ServerOptions;
  token: string;
  staging: UploadStaging;
  /** Open event streams, ended on close. */
  streams: Set<http.ServerResponse>;
  /** The port listened on (0 until listening). */
  port: number;
}

async function handle(sv: Served, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const verdict = checkOrigin(
    { host: req.headers.host, origin: req.headers.origin, fetchSite: req.headers['sec-fetch-site'] as string | undefined },
    sv.port,
  );
  if (!verdict.ok) {
    req.resume();
    return sendError(res, 403, 'unauthorized', { key: 'http.refused-origin', params: { reason: verdict.reason } });
  }
  const url = new URL(req.url ?? '/', `http://${HOST}:${sv.port}`);
  if (url.pathname === '/api' || url.pathname.startsWith('/api/')) return handleApi(sv, req, res, url);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    req.resume();
    return send(res, 405, 'Method not allowed\n', 'text/plain; charset=utf-8', { Allow: 'GET, HEAD' });
  }
  return serveStatic(sv.options.rendererDir, req, res, url.pathname);
}

async function handleApi(sv: Served, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
  const route = url.pathname.slice(HTTP.apiPrefix.length);
  const isEvents = url.pathname === HTTP.events && req.method === 'GET';
  const given = (req.headers[TOKEN_HEADER] as string | undefined) ?? (isEvents ? url.searchParams.get(TOKEN_QUERY) : null);
  if (!tokensEqual(sv.token, given)) {
    req.resume();
    return sendError(res, 401, 'unauthorized', { key: 'http.bad-token' });
  }
  if (isEvents) return openEventStream(sv, req, res);
  if (req.method !== 'POST') {
    req.resume();
    return sendError(res, 405, 'bad-request', { key: 'http.use-post' }, undefined, { Allow: 'POST' });
  }
  if (await handleUpload(sv, req, res, url)) return;
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(route)) {
    req.resume();
    return sendError(res, 404, 'not-found', { key: 'http.no-route' });
  }
  let body: unknown;
  try {
    body = await readJson(req);
  } catch (err) {
    req.resume();
    throw err;
  }
  // service.call parses the body with the method's contract schema and never throws.
  const result = await sv.options.service.call(route, body);
  if (IMPORT_ROUTES.has(route)) sv.staging.settle(stagedPaths(body), awaitsAnswers(body, result));
  return sendResult(res, result);
}

/**
 * The browser UI's upload routes (a dropped batch, file by file); false for any other route. A
 * refusal (a file's path or size, a clash, a batch the server no longer knows) is an answer the
 * page shows, sent like the engine's own (answerStatus).
 */
async function handleUpload(sv: Served, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> {
  try {
    return await uploadRoute(sv, req, res, url);
  } catch (err) {
    req.resume();
    sendResult(res, { ok: false, error: toErrorInfo(err) });
    return true;
  }
}

async function uploadRoute(sv: Served, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<boolean> {
  if (url.pathname === HTTP.uploadBegin) {
    req.resume();
    sendResult(res, { ok: true, value: sv.staging.begin() });
    return true;
  }
  if (url.pathname === HTTP.uploadFile) {
    const length = req.headers['content-length'] ? Number(req.headers['content-length']) : undefined;
    const value = await sv.staging.writeFile(url.searchParams.get('batch'), url.searchParams.get('path'), req, length);
    sendResult(res, { ok: true, value });
    return true;
  }
  if (url.pathname === HTTP.uploadFinish) {
    req.resume();
    sendResult(res, { ok: true, value: sv.staging.finish(url.searchParams.get('batch')) });
    return true;
  }
  return false;
}

function openEventStream(sv: Served, req: http.IncomingMessage, res: http.ServerResponse): void {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write('retry: 2000\n: connected\n\n');
  sv.streams.add(res);
  const off = sv.options.service.on((event) => {
    res.write(`data: ${JSON.stringify(event)}\n\n`);
  });
  const beat = setInterval(() => res.write(': keep-alive\n\n'), sv.options.heartbeatMs ?? 20_000);
  const done = () => {
    clearInterval(beat);
    off();
    sv.streams.delete(res);
  };
  req.on('close', done);
  res.on('close', done);
}

function serveStatic(root: string | null | undefined, req: http.IncomingMessage, res: http.ServerResponse, pathname: string): void {
  if (!root || !fs.existsSync(path.join(root, 'index.html'))) {
    return send(res, 503, NOT_BUILT, 'text/plain; charset=utf-8');
  }
  const found = resolveStatic(root, pathname);
  if (found.kind === 'refused') return send(res, 403, 'Forbidden\n', 'text/plain; charset=utf-8');
  if (found.kind === 'missing') return send(res, 404, 'Not found\n', 'text/plain; charset=utf-8');
  const isHtml = found.file.endsWith('.html');
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': contentType(found.file),
    'Content-Length': String(found.size),
    // Hashed asset names may be cached; the shell must not be, so a rebuild shows up on reload.
    'Cache-Control': isHtml ? 'no-store' : 'public, max-age=3600',
    ...(isHtml ? { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } : {}),
  });
  if (req.method === 'HEAD') return void res.end();
  fs.createReadStream(found.file)
    .on('error', () => res.destroy())
    .pipe(res);
}

/** Listen on loopback; resolves with the port. */
function listen(server: http.Server, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const staging = new UploadStaging(options.stagingDir, { ...DEFAULT_UPLOAD_LIMITS, ...options.uploadLimits });
  staging.sweep();
  const sv: Served = { options, token: options.token ?? newToken(), staging, streams: new Set(), port: 0 };
  const server = http.createServer((req, res) => {
    handle(sv, req, res).catch((err) => {
      const info = toErrorInfo(err);
      if (!res.headersSent) sendError(res, STATUS[info.code] ?? 500, info.code, info.msg, info.message);
      else res.destroy();
    });
  });
  sv.port = await listen(server, options.port ?? 0);
  const origin = `http://${HOST}:${sv.port}`;
  const sweeper = setInterval(() => staging.sweep(), 60 * 60 * 1000);
  sweeper.unref();
  // After listening, so the URL is printed at once; the first scan and the watch run in the background.
  const warn = options.warn ?? ((message: string) => process.stderr.write(`${message}\n`));
  const catalogWatch = options.watchCatalog === false ? Promise.resolve() : goLive(options.service, warn);

  return {
    port: sv.port,
    origin,
    token: sv.token,
    url: `${origin}/#token=${sv.token}`,
    catalogWatch,
    close: async () => {
      await new Promise<void>((resolve) => {
        clearInterval(sweeper);
        for (const res of sv.streams) res.end();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      // A watch still starting would be set up after the caller closes the service: let it settle.
      await catalogWatch;
    },
  };
}
