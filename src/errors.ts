import type { ErrorCode, ErrorInfo, Result } from './contract/index.js';

/** An error the engine raises on purpose; its code and message are safe to show to users. */
export class SkillDockError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'SkillDockError';
  }
}

/** Turn anything thrown into `{ code, message }` for a process boundary (never a stack trace). */
export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof SkillDockError) {
    return err.details === undefined
      ? { code: err.code, message: err.message }
      : { code: err.code, message: err.message, details: err.details };
  }
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && typeof e.message === 'string') {
    return { code: 'io', message: `${e.code}: ${e.message}` };
  }
  if (e && e.name === 'ZodError') return { code: 'bad-request', message: String(e.message) };
  return { code: 'internal', message: e instanceof Error ? e.message : String(err) };
}

export async function toResult<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: toErrorInfo(err) };
  }
}
