import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback HTTP server that plays an agent CLI's model endpoint to record what the CLI sends:
// every request is kept (method, url, headers, body) and answered with an error, so the CLI stops
// after its first call, unless a script answers it (a tool call for the CLI to make, then text).
// Nothing leaves 127.0.0.1; whoever starts it closes it. `skilldock verify` and the real-CLI tests
// (e2e/agents) share it.

export interface Recorded {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Recorder {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A scripted answer to one request. */
export interface Answer {
  status?: number;
  contentType: string;
  body: string;
}

/** Answers a recorded request (its index among all requests), or undefined for the error. */
export type Script = (req: Recorded, index: number) => Answer | undefined;

const MAX_BODY = 32 * 1024 * 1024;
const MAX_REQUESTS = 200;

export async function startRecorder(script?: Script): Promise<Recorder> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const rec: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      // Past the bound, nothing is kept or scripted: the error below ends any loop.
      const kept = requests.length < MAX_REQUESTS;
      if (kept) requests.push(rec);
      const answer = kept && script ? script(rec, requests.length - 1) : undefined;
      if (answer) {
        res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType });
        res.end(answer.body);
        return;
      }
      // A non-retryable client error: the CLI gives up at once instead of retrying.
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'recorded by the SkillDock loopback recorder' } }),
      );
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every string inside a JSON value, depth first (bounded). */
export function jsonStrings(value: unknown, limit = 100_000): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length && out.length < limit) {
    const v = stack.pop();
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (v && typeof v === 'object') stack.push(...Object.values(v as Record<string, unknown>).reverse());
  }
  return out;
}
