import fs from 'node:fs';
import path from 'node:path';
import { randomHex } from '../store/lazy-crypto.js';
import type { Conversation, ConversationIndex } from '../contract/index.js';
import type { EventBus } from '../context.js';
import { JsonStore } from '../store/json-store.js';
import { schemaNamed, validated } from '../store/lazy-schema.js';
import type { ConversationsFile } from './conversation-schemas.js';

// Every launched conversation with its exact skill snapshot, written so a launch costs two small
// writes and no lock:
// - `<home>/conversations/<id>/conversation.json`: the full record, written atomically (temp file +
//   rename) into the conversation's own data dir, which no other launch ever touches;
// - `<home>/conversations/index.jsonl`: one line per launch (its index entry) and one per cleanup
//   (`{id, removedAt}`), appended with a single O_APPEND write, so concurrent launches from the CLI
//   and the app interleave whole lines. Reading folds the lines; a torn last line (crash) is skipped.
// `<home>/conversations.json` (the JsonStore earlier versions wrote) is still read, never written.

export const CONVERSATIONS_VERSION = 1;

/** The record of earlier versions (read-only now). */
export function legacyConversationsStore(home: string, events?: EventBus): JsonStore<ConversationsFile> {
  return new JsonStore<ConversationsFile>({
    file: path.join(home, 'conversations.json'),
    schema: 'conversations-file',
    version: CONVERSATIONS_VERSION,
    defaults: () => ({ conversations: [] }),
    events,
  });
}

export function conversationIndexFile(home: string): string {
  return path.join(home, 'conversations', 'index.jsonl');
}

/** The conversations of one SkillDock home. */
export class ConversationLog {
  private readonly legacy: JsonStore<ConversationsFile>;
  readonly indexFile: string;

  constructor(
    readonly home: string,
    events?: EventBus,
  ) {
    this.legacy = legacyConversationsStore(home, events);
    this.indexFile = conversationIndexFile(home);
  }

  /** Every conversation in launch order, removed ones included (with `removedAt`). */
  list(): ConversationIndex[] {
    const byId = new Map<string, ConversationIndex>();
    if (fs.existsSync(this.legacy.file)) for (const c of this.legacy.read().conversations) byId.set(c.id, c);
    let text = '';
    try {
      text = fs.readFileSync(this.indexFile, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const line of parseIndexLines(text)) {
      if ('entry' in line) {
        byId.set(line.entry.id, line.entry);
        continue;
      }
      const known = byId.get(line.removed.id);
      if (known) byId.set(known.id, { ...known, removedAt: line.removed.removedAt });
    }
    return [...byId.values()];
  }

  /** Record a launch: the full record beside its data, then its index line. */
  record(c: Conversation): void {
    writeAtomicNoSync(detailFile(c.dataDir), `${JSON.stringify(c)}\n`);
    this.append(indexEntry(c));
  }

  /** Mark conversations cleaned up (their data dirs are gone; the index keeps what they were). */
  markRemoved(ids: string[], at: string): void {
    if (ids.length) this.append(...ids.map((id) => ({ id, removedAt: at })));
  }

  private append(...lines: unknown[]): void {
    let text = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
    let fd: number;
    try {
      fd = fs.openSync(this.indexFile, 'a+', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      fs.mkdirSync(path.dirname(this.indexFile), { recursive: true }); // the first launch of this home
      fd = fs.openSync(this.indexFile, 'a+', 0o600);
    }
    try {
      // A line torn by a crash must not swallow this one: start on a fresh line.
      const size = fs.fstatSync(fd).size;
      const last = Buffer.alloc(1);
      if (size > 0 && fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) text = `\n${text}`;
      // One write call per append: O_APPEND makes each land whole at the end, even across processes.
      fs.writeSync(fd, text);
    } finally {
      fs.closeSync(fd);
    }
  }
}

type IndexLine = { entry: ConversationIndex } | { removed: { id: string; removedAt: string } };

/** The launch and cleanup lines of `index.jsonl`, validated (the same text gives the same lines). */
function parseIndexLines(text: string): IndexLine[] {
  if (!text.trim()) return [];
  return validated(
    'conversation-index',
    text,
    ['conversation-index', 'conversation-removed'],
    () => {
      const entrySchema = schemaNamed<ConversationIndex>('conversation-index')!;
      const removedSchema = schemaNamed<{ id: string; removedAt: string }>('conversation-removed')!;
      const lines: IndexLine[] = [];
      for (const line of text.split('\n')) {
        if (!line.trim()) continue;
        let json: unknown;
        try {
          json = JSON.parse(line);
        } catch {
          continue; // torn by a crash mid-append: that launch's full record is still beside its data
        }
        const entry = entrySchema.safeParse(json);
        if (entry.success) {
          lines.push({ entry: entry.data });
          continue;
        }
        const removed = removedSchema.safeParse(json);
        if (removed.success) lines.push({ removed: removed.data });
      }
      return lines;
    },
    () => true,
  );
}

/**
 * Temp file + rename in the same dir: a reader sees the old file or the new one, never a torn one.
 * No fsync: losing the record of a launch to a power cut only means its temporary workspace is
 * not cleaned up automatically; it is never deleted by mistake.
 */
function writeAtomicNoSync(file: string, text: string): void {
  const tmp = `${file}.tmp-${process.pid}-${randomHex(4)}`;
  fs.writeFileSync(tmp, text, { flag: 'wx', mode: 0o600 });
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

export function workspacesRoot(home: string): string {
  return path.join(home, 'workspaces');
}

export function conversationDataDir(home: string, id: string): string {
  return path.join(home, 'conversations', id);
}

/** Conversation ids are also directory names: one safe segment. */
export function isValidConversationId(id: string): boolean {
  return /^[\p{L}\p{N}][\p{L}\p{N}\p{M}-]{0,80}$/u.test(id) && !/[A-Z]/.test(id);
}

/**
 * `<slug>` of an assistant name: lower-case letters of any script, digits and dashes, at most 32
 * characters. Accents come off Latin letters (café → cafe); Chinese, Japanese (with its voiced
 * marks) and other scripts keep their name, so the workspace folder still says whose it is.
 */
export function assistantSlug(name: string): string {
  const chars = [
    ...name
      .normalize('NFKD')
      .replace(/([A-Za-z])\p{M}+/gu, '$1')
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
      .replace(/^-+|-+$/g, ''),
  ];
  const slug = chars.slice(0, 32).join('').replace(/-+$/, '');
  return slug || 'assistant';
}

/** `<assistant>-<yyyymmdd-hhmmss>-<random>`; the random part keeps concurrent launches apart. */
export function newConversationId(assistantName: string, now = new Date()): string {
  const t = now.toISOString();
  const stamp = `${t.slice(0, 10).replace(/-/g, '')}-${t.slice(11, 19).replace(/:/g, '')}`;
  return `${assistantSlug(assistantName)}-${stamp}-${randomHex(4)}`;
}

/**
 * Create a fresh directory named by a new conversation id under `parent`, atomically: mkdir of the
 * final path fails on EEXIST, so two launches can never share a workspace.
 */
export function createUniqueDir(parent: string, assistantName: string, now = new Date()): { id: string; dir: string } {
  let madeParent = false;
  for (let attempt = 0; attempt < 20; attempt++) {
    const id = newConversationId(assistantName, now);
    const dir = path.join(parent, id);
    try {
      fs.mkdirSync(dir);
      return { id, dir };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && !madeParent) {
        // the parent is made once per home, not probed on every launch
        fs.mkdirSync(parent, { recursive: true });
        madeParent = true;
        attempt--;
        continue;
      }
      if (code !== 'EEXIST') throw err;
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

/** Record a launch (see ConversationLog). */
export function recordConversation(log: ConversationLog, c: Conversation): void {
  log.record(c);
}

/** The full record; after cleanup (data dir gone) only what the index kept. */
export function fullConversation(entry: ConversationIndex): Conversation {
  let raw: string | null = null;
  try {
    raw = fs.readFileSync(detailFile(entry.dataDir), 'utf8');
  } catch {
    // gone or unreadable: fall back to the index
  }
  const record =
    raw === null
      ? null
      : validated(
          'conversation',
          raw,
          ['conversation'],
          () => {
            try {
              const parsed = schemaNamed<Conversation>('conversation')!.safeParse(JSON.parse(raw));
              return parsed.success ? parsed.data : null;
            } catch {
              return null; // not JSON: fall back to the index
            }
          },
          (c) => c !== null,
        );
  if (record && record.id === entry.id) return { ...record, removedAt: entry.removedAt };
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
