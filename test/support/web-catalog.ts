import http from 'node:http';
import net from 'node:net';

// A real HTTP server on 127.0.0.1 for web catalogs: serves fixed routes (a well-known skills index
// and its files, a search API's answers), can hang a route (a slow host) and counts requests.

export interface WebCatalog {
  base: string;
  routes: Map<string, { status?: number; body: string; type?: string } | 'hang'>;
  hits: string[];
  stop(): Promise<void>;
}

export async function startWebCatalog(): Promise<WebCatalog> {
  const sockets = new Set<net.Socket>();
  const routes: WebCatalog['routes'] = new Map();
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.push(`${u.pathname}${u.search}`);
    const r = routes.get(u.pathname) ?? routes.get(`${u.pathname}${u.search}`);
    if (r === 'hang') return; // accepted, never answered
    if (!r) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(r.status ?? 200, { 'content-type': r.type ?? 'application/json' }).end(r.body);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    routes,
    hits,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
