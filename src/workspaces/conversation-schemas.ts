import { z } from 'zod';
import { ConversationIndexSchema } from '../contract/index.js';

// Shapes of the conversation files (conversations.ts reads them through src/store/lazy-schema.ts,
// so the write guard's hook can answer without loading zod).

export const ConversationsFileSchema = z.object({ conversations: z.array(ConversationIndexSchema) });
export type ConversationsFile = z.infer<typeof ConversationsFileSchema>;
export const RemovedLineSchema = z.object({ id: z.string(), removedAt: z.string() });
