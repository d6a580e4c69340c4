import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AssistantSchema, AssistantSkillRefSchema, RootKindSchema, type Assistant } from '../contract/index.js';

// What lives in `<home>/assistants.json` and in `resources/assistants/` (the starters).

export const ASSISTANTS_FILE_VERSION = 1;

/** A user assistant as stored: never built-in (starters live in resources, not in the file). */
export const StoredAssistantSchema = AssistantSchema.extend({ builtin: z.literal(false) });
export type StoredAssistant = z.infer<typeof StoredAssistantSchema>;

export const AssistantsFileSchema = z.object({ assistants: z.array(StoredAssistantSchema) });
export type AssistantsFile = z.infer<typeof AssistantsFileSchema>;

export function emptyAssistantsFile(): AssistantsFile {
  return { assistants: [] };
}

const StarterSchema = z.object({
  id: z.string().regex(/^starter-[a-z0-9-]+$/),
  name: z.string().min(1),
  agent: z.string().min(1),
  /** Markdown file next to starters.json holding the persona rules. */
  rulesFile: z.string().regex(/^[a-z0-9-]+\.md$/),
  defaultWorkspace: z.null().optional(),
  skills: z.array(
    z.object({
      name: z.string().min(1),
      rootId: z.string().default('builtin'),
      rootKind: RootKindSchema.default('builtin'),
    }),
  ),
});

const StartersFileSchema = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  starters: z.array(StarterSchema),
});

const startersCache = new Map<string, Assistant[]>();

/**
 * The built-in starter assistants shipped in `resources/assistants/starters.json`. A broken file
 * is a packaging bug, so it fails loudly rather than silently showing no starters.
 */
export function loadStarters(resourcesDir: string): Assistant[] {
  const dir = path.join(resourcesDir, 'assistants');
  const file = path.join(dir, 'starters.json');
  const hit = startersCache.get(file);
  if (hit) return hit;
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const parsed = StartersFileSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`Invalid starter assistants ${file}: ${parsed.error.message}`);
  const { createdAt, starters } = parsed.data;
  const result = starters.map((s): Assistant => ({
    id: s.id,
    name: s.name,
    agent: s.agent,
    rules: fs.readFileSync(path.join(dir, s.rulesFile), 'utf8'),
    skills: s.skills.map((k) => AssistantSkillRefSchema.parse({ ...k, attachedAt: createdAt })),
    defaultWorkspace: null,
    builtin: true,
    createdAt,
    updatedAt: createdAt,
  }));
  startersCache.set(file, result);
  return result;
}

export function newAssistantId(): string {
  return `ast-${randomBytes(6).toString('hex')}`;
}

/** Case- and width-insensitive key for the unique-name rule ("Reviewer" = "reviewer" = "ＲＥＶＩＥＷＥＲ"). */
export function nameKey(name: string): string {
  return name.normalize('NFKC').trim().toLowerCase();
}

/**
 * "<base> copy", "<base> copy 2", ... : the first that is free. A copy of a copy counts on from the
 * original ("X copy 3", never "X copy 2 copy"). The window passes its own name, in the user's
 * language (renderer/src/pages/assistants/copy-name.ts); this is the CLI's.
 */
export function copyName(name: string, taken: (name: string) => boolean): string {
  const base = name.replace(/ copy(?: \d+)?$/u, '') || name;
  const stem = `${base} copy`.slice(0, 93);
  if (!taken(stem)) return stem;
  for (let i = 2; ; i++) {
    const candidate = `${stem} ${i}`;
    if (!taken(candidate)) return candidate;
  }
}
