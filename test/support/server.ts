import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with full control over headers (fetch cannot forge Host or Origin). */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export function hostHeaders(port: number, token?: string, extra: Record<string, string> = {}): Record<string, string> {
  return { host: `127.0.0.1:${port}`, ...(token ? { 'x-skilldock-token': token } : {}), ...extra };
}

/** `POST /api/<method>` with the server's token and a JSON body. */
export function callApi(server: { port: number; token: string }, method: string, body: unknown = {}): Promise<RawResponse> {
  return rawRequest(server.port, {
    method: 'POST',
    path: `/api/${method}`,
    headers: hostHeaders(server.port, server.token, { 'content-type': 'application/json' }),
    body: JSON.stringify(body),
  });
}
