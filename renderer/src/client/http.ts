import type { Api, SkillDockEvent } from '../../../src/contract/index';
import { METHOD_NAMES, isEngineEvent } from '../../../src/contract/names';
import { HTTP, type UploadBeginResponse, type UploadFileResponse, type UploadFinishResponse } from '../../../src/contract/http';
import { apiError, unwrap } from './errors';

/** A file of a drop with its path relative to the drop (`my-skill/scripts/run.sh`, `pack.zip`). */
export interface UploadItem {
  file: Blob;
  relativePath: string;
}

export interface UploadProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export interface HttpClientOptions {
  /** `http://127.0.0.1:<port>`; '' for the page's own origin. */
  origin: string;
  token: string | null;
  fetch?: typeof fetch;
  /** Browsers have it; absent elsewhere, events are then unavailable. */
  EventSource?: typeof EventSource;
  /** Files uploaded in parallel. */
  uploadConcurrency?: number;
}

export interface HttpClient {
  api: Api;
  /**
   * `onOpen` is called each time the event stream opens: the first time and after every reconnect.
   * What the engine pushed before that reached nobody, so the caller reads its state again then.
   */
  onEvent(listener: (event: SkillDockEvent) => void, onOpen?: () => void): () => void;
  /** Stream files into a fresh staging batch; resolves to the staged top-level paths for `importPaths`. */
  upload(items: UploadItem[], onProgress?: (p: UploadProgress) => void): Promise<UploadFinishResponse>;
}

export function createHttpClient(options: HttpClientOptions): HttpClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const token = options.token;

  async function request<T>(path: string, init: { body?: BodyInit; json?: unknown; contentType?: string } = {}): Promise<T> {
    if (!token) throw apiError('unauthorized', { key: 'http.no-token' });
    const headers: Record<string, string> = { [HTTP.tokenHeader]: token };
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    } else if (init.contentType) {
      headers['content-type'] = init.contentType;
    }
    let res: Response;
    try {
      res = await doFetch(`${options.origin}${path}`, { method: 'POST', headers, body, credentials: 'omit', cache: 'no-store' });
    } catch (err) {
      throw apiError('io', { key: 'http.unreachable', params: { reason: (err as Error).message } });
    }
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch {
      throw apiError(res.status === 401 || res.status === 403 ? 'unauthorized' : 'internal', {
        key: 'http.no-result',
        params: { status: res.status },
      });
    }
    return unwrap<T>(parsed);
  }

  const api = Object.fromEntries(
    METHOD_NAMES.map((name) => [name, (input?: unknown) => request(`${HTTP.apiPrefix}${name}`, { json: input ?? {} })]),
  ) as unknown as Api;

  // One stream for all listeners, opened on the first and closed with the last. The server
  // subscribes a stream to the engine before its headers go out, so from `open` on nothing is
  // missed; before it (connecting, or reconnecting after a drop) events are lost, hence onOpen.
  const listeners = new Map<(event: SkillDockEvent) => void, (() => void) | undefined>();
  let source: EventSource | null = null;
  function notify<A extends unknown[]>(fns: Iterable<((...args: A) => void) | undefined>, ...args: A): void {
    for (const fn of [...fns]) {
      try {
        fn?.(...args);
      } catch (err) {
        console.error('skilldock event listener failed', err);
      }
    }
  }
  function openStream(): void {
    const ES = options.EventSource ?? (globalThis as { EventSource?: typeof EventSource }).EventSource;
    if (!ES || !token) return;
    source = new ES(`${options.origin}${HTTP.events}?${HTTP.tokenQuery}=${encodeURIComponent(token)}`);
    source.onopen = () => notify(listeners.values());
    source.onmessage = (msg: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(String(msg.data));
      } catch {
        return;
      }
      // The engine sends only its own events (loopback, token): known by their type, without
      // loading the contract's schemas (zod) into the first script.
      if (!isEngineEvent(data)) return;
      notify(listeners.keys(), data);
    };
  }

  function onEvent(listener: (event: SkillDockEvent) => void, onOpen?: () => void): () => void {
    listeners.set(listener, onOpen);
    if (!source) openStream();
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && source) {
        source.close();
        source = null;
      }
    };
  }

  async function upload(items: UploadItem[], onProgress?: (p: UploadProgress) => void): Promise<UploadFinishResponse> {
    if (items.length === 0) throw apiError('bad-request', { key: 'upload.nothing' });
    const { batch } = await request<UploadBeginResponse>(HTTP.uploadBegin);
    const progress: UploadProgress = {
      filesDone: 0,
      filesTotal: items.length,
      bytesDone: 0,
      bytesTotal: items.reduce((n, i) => n + i.file.size, 0),
    };
    onProgress?.({ ...progress });
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (!failed && next < items.length) {
        const item = items[next++];
        const q = new URLSearchParams({ batch, path: item.relativePath });
        try {
          await request<UploadFileResponse>(`${HTTP.uploadFile}?${q}`, { body: item.file, contentType: 'application/octet-stream' });
        } catch (err) {
          failed = true; // stop the other workers: the batch is incomplete anyway
          throw err;
        }
        progress.filesDone += 1;
        progress.bytesDone += item.file.size;
        onProgress?.({ ...progress });
      }
    };
    const n = Math.max(1, Math.min(options.uploadConcurrency ?? 4, items.length));
    await Promise.all(Array.from({ length: n }, worker));
    return request<UploadFinishResponse>(`${HTTP.uploadFinish}?${new URLSearchParams({ batch })}`);
  }

  return { api, onEvent, upload };
}
