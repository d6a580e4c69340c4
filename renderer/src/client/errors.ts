import type { ErrorCode, ErrorInfo, MessageRef, Result } from '../../../src/contract/index';
import { flattenParams, interpolate } from '../../../src/contract/message-ref';
import { SERVER_MESSAGES } from '../../../src/contract/messages-server';

/** Every failure of an API call, whichever door it went through: a stable code and a user-facing message. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details?: unknown;
  /** The message as a key and parameters, for the UI to word in the user's language. */
  readonly msg?: MessageRef;

  constructor(code: ErrorCode, message: string, details?: unknown, msg?: MessageRef) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    if (details !== undefined) this.details = details;
    if (msg !== undefined) this.msg = msg;
  }

  static from(info: ErrorInfo): ApiError {
    return new ApiError(info.code, info.message, info.details, info.msg);
  }
}

/**
 * A failure the client itself finds: its English text from the key, the key for the UI's language.
 * Only transport keys (messages-server.ts): the whole English table stays out of the first script.
 */
export function apiError(code: ErrorCode, msg: MessageRef & { key: keyof typeof SERVER_MESSAGES }): ApiError {
  return new ApiError(
    code,
    interpolate(
      SERVER_MESSAGES[msg.key],
      flattenParams(msg.params, (ref) => ref.key, ', '),
    ),
    undefined,
    msg,
  );
}

const CODES = new Set<string>([
  'bad-request',
  'not-found',
  'conflict',
  'refused',
  'io',
  'corrupt-data',
  'unsupported',
  'unauthorized',
  'internal',
]);

/** Accept only a well-formed Result; anything else is the other side misbehaving. */
export function unwrap<T>(result: unknown): T {
  if (result && typeof result === 'object' && 'ok' in result) {
    const r = result as Result<T>;
    if (r.ok === true) return r.value;
    if (r.ok === false && r.error && typeof r.error.message === 'string') {
      const code = CODES.has(r.error.code) ? r.error.code : 'internal';
      throw ApiError.from({ ...r.error, code: code as ErrorCode });
    }
  }
  throw apiError('internal', { key: 'http.malformed' });
}
