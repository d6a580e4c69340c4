import { z } from 'zod';
import { MessageRefSchema } from './messages.js';

/** Severity of a lint or scan finding (see docs/lint-rules.md). */
export const SeveritySchema = z.enum(['error', 'warning', 'info']);
export type Severity = z.infer<typeof SeveritySchema>;

/** One finding with a stable code. Shared by lint, discovery and the security scan. */
export const DiagnosticSchema = z.object({
  code: z.string(),
  severity: SeveritySchema,
  message: z.string(),
  /** `message` as a key and parameters, for the UI to word in the user's language. */
  msg: MessageRefSchema.optional(),
  file: z.string(),
  line: z.number().int().optional(),
  column: z.number().int().optional(),
  /** Agent ids that will drop or mangle the skill because of this finding. */
  agents: z.array(z.string()).optional(),
  /** One sentence: what to change. */
  fix: z.string().optional(),
  /** `fix` as a key and parameters. */
  fixMsg: MessageRefSchema.optional(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

export const CountsSchema = z.object({
  errors: z.number().int(),
  warnings: z.number().int(),
  infos: z.number().int(),
});
export type Counts = z.infer<typeof CountsSchema>;

/** Stable error codes that cross process boundaries. */
export const ErrorCodeSchema = z.enum([
  'bad-request', // payload failed its schema
  'not-found',
  'conflict',
  'refused', // input is hostile or invalid (archive, path traversal...)
  'io', // disk error
  'corrupt-data',
  'unsupported',
  'unauthorized',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorInfoSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  /** Optional structured detail, e.g. diagnostics of a refused skill. */
  details: z.unknown().optional(),
  /** The message as a key and parameters (src/contract/messages.ts), for the UI to word. */
  msg: MessageRefSchema.optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

/** What crosses IPC and HTTP: never a thrown error or a stack trace. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };
