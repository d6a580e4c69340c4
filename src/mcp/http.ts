import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { checkOrigin, newToken, tokensEqual } from '../server/guard.js';
import type { McpSource } from './source.js';
import { createSession } from './server.js';
import { MAX_MESSAGE_BYTES } from './limits.js';

// `skilldock mcp --http`: Streamable HTTP on 127.0.0.1 only, one SDK session per client, behind
// the same guards as the browser UI: the Host and Origin must be this loopback address (DNS
// rebinding, other sites' scripts) and every request carries the per-start token, as
// `Authorization: Bearer <token>` or as the last path segment (`/mcp/<token>`) for hosts whose
// configuration holds only a URL.

/** Open sessions at most: a client that opens and never closes cannot exhaust the process. */
const MAX_SESSIONS = 64;

export interface McpHttpServer {
  url: string;
  /** The endpoint with the token in its path. */
  tokenUrl: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

function deny(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export async function startMcpHttp(source: McpSource, opts: { port?: number; token?: string; version: string }): Promise<McpHttpServer> {
  const token = opts.token ?? newToken();
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  let port = 0;

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const guard = checkOrigin(
      { host: req.headers.host, origin: req.headers.origin, fetchSite: req.headers['sec-fetch-site'] as string | undefined },
      port,
    );
    if (!guard.ok) return deny(res, 403, `Forbidden: ${guard.reason}`);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const m = /^\/mcp(?:\/([A-Za-z0-9_-]+))?\/?$/.exec(url.pathname);
    if (!m) return deny(res, 404, 'Not found: the MCP endpoint is /mcp');
    const auth = req.headers.authorization;
    const given = m[1] ?? (auth?.startsWith('Bearer ') ? auth.slice(7) : undefined);
    if (!tokensEqual(token, given)) return deny(res, 401, 'Unauthorized: a valid token is required');
    const len = Number(req.headers['content-length'] ?? 0);
    if (len > MAX_MESSAGE_BYTES) return deny(res, 413, 'Request too large');

    const sid = req.headers['mcp-session-id'];
    const known = typeof sid === 'string' ? sessions.get(sid) : undefined;
    if (known) return known.transport.handleRequest(req, res);
    if (typeof sid === 'string') return deny(res, 404, 'Session not found');
    if (req.method !== 'POST') return deny(res, 400, 'Bad request: no session (initialize first)');
    if (sessions.size >= MAX_SESSIONS) return deny(res, 503, 'Too many open sessions');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: MAX_MESSAGE_BYTES,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    const server = createSession(source, opts.version);
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res);
    // A first request that was not a valid initialize leaves no session behind.
    if (!transport.sessionId) await server.close().catch(() => undefined);
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => deny(res, 500, `Internal error: ${err instanceof Error ? err.message : String(err)}`));
  });
  httpServer.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(opts.port ?? 0, '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  port = (httpServer.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp`;
  return {
    url,
    tokenUrl: `${url}/${token}`,
    port,
    token,
    async close() {
      for (const { server } of [...sessions.values()]) await server.close().catch(() => undefined);
      sessions.clear();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
