import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConversationSchema, type Conversation } from '../contract/index.js';
import type { EventBus } from '../context.js';
import { JsonStore } from '../store/json-store.js';

// `<home>/conversations.json`: every launched conversation with its exact skill snapshot. Written
// through the locked, atomic JsonStore so the CLI and the app can launch at the same time.

export const CONVERSATIONS_VERSION = 1;
const FileSchema = z.object({ conversations: z.array(ConversationSchema) });
type ConversationsFile = z.infer<typeof FileSchema>;

export function conversationsStore(home: string, events?: EventBus): JsonStore<ConversationsFile> {
  return new JsonStore<ConversationsFile>({
    file: path.join(home, 'conversations.json'),
    schema: FileSchema,
    version: CONVERSATIONS_VERSION,
    defaults: () => ({ conversations: [] }),
    events,
  });
}

export function workspacesRoot(home: string): string {
  return path.join(home, 'workspaces');
}

export function conversationDataDir(home: string, id: string): string {
  return path.join(home, 'conversations', id);
}

/** Conversation ids are also directory names: one safe segment. */
export function isValidConversationId(id: string): boolean {
  return /^[a-z0-9][a-z0-9-]{0,80}$/.test(id);
}

/** `<slug>` of an assistant name: lowercase ASCII letters, digits and dashes, at most 32. */
export function assistantSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return slug || 'assistant';
}

/** `<assistant>-<yyyymmdd-hhmmss>-<random>`; the random part keeps concurrent launches apart. */
export function newConversationId(assistantName: string, now = new Date()): string {
  const t = now.toISOString();
  const stamp = `${t.slice(0, 10).replace(/-/g, '')}-${t.slice(11, 19).replace(/:/g, '')}`;
  return `${assistantSlug(assistantName)}-${stamp}-${randomBytes(4).toString('hex')}`;
}

/**
 * Create a fresh directory named by a new conversation id under `parent`, atomically: mkdir of the
 * final path fails on EEXIST, so two launches can never share a workspace.
 */
export function createUniqueDir(parent: string, assistantName: string, now = new Date()): { id: string; dir: string } {
  fs.mkdirSync(parent, { recursive: true });
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = newConversationId(assistantName, now);
    const dir = path.join(parent, id);
    try {
      fs.mkdirSync(dir);
      return { id, dir };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  throw new Error(`Could not create a unique workspace under ${parent}`);
}

export function findConversation(store: JsonStore<ConversationsFile>, id: string): Conversation | undefined {
  return store.read().conversations.find((c) => c.id === id);
}

export type { ConversationsFile };
