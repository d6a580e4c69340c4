import { z } from 'zod';
import { isMethodName, methods, type ErrorInfo, type Result } from '../src/contract/index.js';
import { fail, invalidInputError, toErrorInfo } from '../src/errors.js';

/**
 * Everything between an `ipcMain.handle` and the engine, free of Electron so it is unit-tested
 * here: who may call (the app's own window, top frame, app origin), and what it may send (the
 * contract's schema). A payload that fails is answered with `bad-request` and never reaches the
 * service. Errors cross as `{ code, message }`, never a stack.
 */

export interface SenderInfo {
  /** `event.sender.id`. */
  webContentsId: number;
  /** `event.senderFrame?.url`; undefined when the frame is gone. */
  frameUrl: string | undefined;
  /** Whether the sending frame is the top frame of its webContents. */
  isMainFrame: boolean;
}

export interface SenderPolicy {
  /** webContents ids of the app's own windows. */
  trustedWebContents: ReadonlySet<number>;
  /** Origins the app's pages are served from, e.g. `app://skilldock`. */
  trustedOrigins: readonly string[];
}

export interface EngineCaller {
  call(method: string, input: unknown): Promise<Result<unknown>>;
}

export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const u = new URL(url);
    // file: URLs have an opaque origin; compare by scheme + path prefix instead (see isTrustedSender).
    if (u.protocol === 'file:') return 'file://';
    return `${u.protocol}//${u.host}`;
  } catch {
    return null;
  }
}

export function isTrustedSender(sender: SenderInfo, policy: SenderPolicy): boolean {
  if (!policy.trustedWebContents.has(sender.webContentsId)) return false;
  if (!sender.isMainFrame) return false; // an iframe, even of ours, gets nothing
  const origin = originOf(sender.frameUrl);
  return origin !== null && policy.trustedOrigins.includes(origin);
}

const refusedSender: ErrorInfo = { code: 'unauthorized', message: 'IPC refused: not sent by the SkillDock window' };

/** A payload its schema refuses: each issue keyed (field, problem, limit) for the window to word, as the engine does. */
function badRequest(what: string, error: z.ZodError, payload: unknown): Result<never> {
  return { ok: false, error: toErrorInfo(invalidInputError(error.issues, payload, { method: what })) };
}

/** One contract method call over IPC: sender check, schema check, then the engine. */
export async function handleMethodCall(
  engine: EngineCaller,
  policy: SenderPolicy,
  sender: SenderInfo,
  method: string,
  payload: unknown,
): Promise<Result<unknown>> {
  if (!isTrustedSender(sender, policy)) return { ok: false, error: refusedSender };
  if (!isMethodName(method)) return { ok: false, error: toErrorInfo(fail('bad-request', 'common.unknown-method', { method })) };
  const parsed = methods[method].input.safeParse(payload ?? {});
  if (!parsed.success) return badRequest(method, parsed.error, payload ?? {});
  try {
    return await engine.call(method, payload ?? {});
  } catch (err) {
    // engine.call never throws by contract; this only guards against a broken engine
    return { ok: false, error: { code: 'internal', message: err instanceof Error ? err.message : String(err) } };
  }
}

/** Schemas of the desktop-only channels (pickers, reveal), checked the same way. */
export const extraSchemas = {
  pickImportPaths: z.enum(['folders', 'archives']),
  pickFolder: z.undefined(),
  revealPath: z
    .string()
    .min(1)
    .max(4096)
    .refine((p) => !p.includes('\0'), 'NUL in path'),
} as const;

export type ExtraName = keyof typeof extraSchemas;

/** A desktop-only call: same sender check, its own schema, then `run` with the parsed value. */
export async function handleExtraCall<K extends ExtraName, T>(
  policy: SenderPolicy,
  sender: SenderInfo,
  name: K,
  payload: unknown,
  run: (input: z.infer<(typeof extraSchemas)[K]>) => Promise<T>,
): Promise<Result<T>> {
  if (!isTrustedSender(sender, policy)) return { ok: false, error: refusedSender };
  const parsed = extraSchemas[name].safeParse(payload);
  if (!parsed.success) return badRequest(name, parsed.error, payload);
  try {
    return { ok: true, value: await run(parsed.data as z.infer<(typeof extraSchemas)[K]>) };
  } catch (err) {
    return { ok: false, error: { code: 'io', message: err instanceof Error ? err.message : String(err) } };
  }
}
