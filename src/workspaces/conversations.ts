import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ConversationIndexSchema, ConversationSchema, type Conversation, type ConversationIndex } from '../contract/index.js';
import type { EventBus } from '../context.js';
import { JsonStore } from '../store/json-store.js';

// `<home>/conversations.json`: every launched conversation with its exact skill snapshot. Written
// through the locked, atomic JsonStore so the CLI and the app can launch at the same time.

export const CONVERSATIONS_VERSION = 1;
const FileSchema = z.object({ conversations: z.array(ConversationIndexSchema) });
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

export function indexEntry(c: Conversation): ConversationIndex {
  return {
    id: c.id,
    assistantId: c.assistantId,
    assistantName: c.assistantName,
    agent: c.agent,
    mode: c.mode,
    temporary: c.temporary,
    workspace: c.workspace,
    dataDir: c.dataDir,
    createdAt: c.createdAt,
    removedAt: c.removedAt,
    skills: c.skills.map((s) => ({ name: s.name, digest: s.digest })),
  };
}

function detailFile(dataDir: string): string {
  return path.join(dataDir, 'conversation.json');
}

/** Record a launch: the full record beside its data, a small entry in conversations.json. */
export function recordConversation(store: JsonStore<ConversationsFile>, c: Conversation): void {
  // The data dir is this conversation's alone, so no lock; a torn file (crash) falls back to the index.
  fs.writeFileSync(detailFile(c.dataDir), `${JSON.stringify(c)}\n`);
  store.update((f) => {
    f.conversations.push(indexEntry(c));
  });
}

/** The full record; after cleanup (data dir gone) only what the index kept. */
export function fullConversation(entry: ConversationIndex): Conversation {
  try {
    const parsed = ConversationSchema.safeParse(JSON.parse(fs.readFileSync(detailFile(entry.dataDir), 'utf8')));
    if (parsed.success && parsed.data.id === entry.id) return { ...parsed.data, removedAt: entry.removedAt };
  } catch {
    // gone or unreadable: fall back to the index
  }
  return {
    ...entry,
    contextFile: null,
    skills: entry.skills.map((s) => ({ ...s, dir: '', stateId: null })),
    stateDirs: [],
    legacy: [],
    guardFiles: [],
    command: [],
    env: {},
  };
}

export type { ConversationsFile };
