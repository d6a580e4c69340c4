import { z } from 'zod';
import type { MessageParams, MessageRef } from './messages-text.js';

// The wire schemas of engine messages; the texts and the functions that word them are in
// messages-text.ts (no zod), re-exported here so `contract/index` still offers everything.
export * from './messages-text.js';

const MessageScalarSchema = z.union([z.string(), z.number(), z.boolean()]);
export const MessageRefSchema: z.ZodType<MessageRef> = z.lazy(() =>
  z.object({
    key: z.string(),
    params: MessageParamsSchema.optional(),
  }),
);
export const MessageParamsSchema: z.ZodType<MessageParams> = z.lazy(() =>
  z.record(z.string(), z.union([MessageScalarSchema, MessageRefSchema, z.array(z.union([MessageScalarSchema, MessageRefSchema]))])),
);
