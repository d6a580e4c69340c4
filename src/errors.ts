import type { ErrorCode, ErrorInfo, MessageKey, MessageParams, MessageRef, Result } from './contract/index.js';
import { formatMessage } from './contract/messages-text.js';
import { invalidInput } from './input-issues.js';

/**
 * An error the engine raises on purpose; its code and message are safe to show to users.
 * `msg` is the same message as a key and parameters, which the UI words in the user's language
 * (src/contract/messages.ts). Prefer `fail()`, which builds both from one key.
 */
export class SkillDockError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly msg?: MessageRef,
  ) {
    super(message);
    this.name = 'SkillDockError';
  }
}

/** A SkillDockError whose English message comes from the key's template (one source of wording). */
export function fail(code: ErrorCode, key: MessageKey, params?: MessageParams, details?: unknown): SkillDockError {
  const msg: MessageRef = params ? { key, params } : { key };
  return new SkillDockError(code, formatMessage(msg), details, msg);
}

/**
 * A call's input refused by its schema: each zod issue said as a field and a coded problem
 * (`input.issue.*`), worded by the window in its language, never zod's English. `input` is the
 * value that was parsed, to tell a missing field from a wrong one.
 */
export function invalidInputError(issues: Parameters<typeof invalidInput>[0], input: unknown, details?: unknown): SkillDockError {
  const msg = invalidInput(issues, input);
  return new SkillDockError('bad-request', formatMessage(msg), details, msg);
}

/** Turn anything thrown into `{ code, message }` for a process boundary (never a stack trace). */
export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof SkillDockError) {
    const info: ErrorInfo = { code: err.code, message: err.message };
    if (err.details !== undefined) info.details = err.details;
    if (err.msg) info.msg = err.msg;
    return info;
  }
  const e = err as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string' && typeof e.message === 'string') {
    const msg: MessageRef = { key: 'common.io', params: { errno: e.code, reason: e.message } };
    return { code: 'io', message: `${e.code}: ${e.message}`, msg };
  }
  if (e && e.name === 'ZodError' && Array.isArray((e as { issues?: unknown }).issues)) {
    // Worded from the issues' codes and fields, never zod's English (the input is not at hand here).
    const msg = invalidInput((e as unknown as { issues: Parameters<typeof invalidInput>[0] }).issues);
    return { code: 'bad-request', message: formatMessage(msg), msg };
  }
  const reason = e instanceof Error ? e.message : String(err);
  return { code: 'internal', message: reason, msg: { key: 'common.internal', params: { reason } } };
}

export async function toResult<T>(fn: () => Promise<T>): Promise<Result<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (err) {
    return { ok: false, error: toErrorInfo(err) };
  }
}
