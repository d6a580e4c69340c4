/**
 * The browser door's wire format, shared by `src/server` and the renderer's HTTP client.
 * `POST /api/<method>` with a JSON body answers a Result; `GET /api/events` is Server-Sent Events
 * (one JSON engine event per `data:` line); uploads stream one file per request into a batch.
 */
export const HTTP = {
  /** Header carrying the per-start token on every API request. */
  tokenHeader: 'x-skilldock-token',
  /** Query parameter carrying the token for EventSource, which cannot set headers. */
  tokenQuery: 'token',
  apiPrefix: '/api/',
  events: '/api/events',
  /** POST → `{ batch }`. */
  uploadBegin: '/api/upload/begin',
  /** POST `?batch=<id>&path=<relative path>` with the raw file as body → `{ path, bytes }`. */
  uploadFile: '/api/upload/file',
  /** POST `?batch=<id>` → `{ paths, files, bytes }`: absolute staged top-level entries for `importPaths`. */
  uploadFinish: '/api/upload/finish',
} as const;

export interface UploadBeginResponse {
  batch: string;
}
export interface UploadFileResponse {
  path: string;
  bytes: number;
}
export interface UploadFinishResponse {
  paths: string[];
  files: number;
  bytes: number;
}
