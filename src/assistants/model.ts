import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  AssistantSchema,
  AssistantSkillRefSchema,
  LanguageSchema,
  RootKindSchema,
  type Assistant,
  type Language,
} from '../contract/index.js';

// What lives in `<home>/assistants.json` and in `resources/assistants/` (the starters).
//
// Starters speak the user's language (issue 23 item 14): starters.json holds each one's name in
// every shipped language, and `<rules>.<language>.md` its persona beside the English `<rules>.md`.
// They are read-only and never stored, so a language switch changes nothing the user owns: the
// engine hands out the starters in the language of the settings, and what a user makes from one (a
// duplicate) keeps the words it was made with.

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
  /** The English name. */
  name: z.string().min(1),
  /** The name in each other shipped language. */
  names: z.record(LanguageSchema.exclude(['en']), z.string().min(1)),
  agent: z.string().min(1),
  /** Markdown file next to starters.json holding the persona rules (in English; `<base>.<language>.md` in another). */
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

type StartersFile = z.infer<typeof StartersFileSchema>;
const startersCache = new Map<string, StartersFile | null>();

function readStartersFile(dir: string): StartersFile | null {
  const file = path.join(dir, 'starters.json');
  if (startersCache.has(file)) return startersCache.get(file)!;
  let raw: string;
  try {
    raw = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    startersCache.set(file, null);
    return null;
  }
  const parsed = StartersFileSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`Invalid starter assistants ${file}: ${parsed.error.message}`);
  startersCache.set(file, parsed.data);
  return parsed.data;
}

const rulesCache = new Map<string, string>();

/** The persona in `language`, or in English when that language has no file of its own. */
function starterRules(dir: string, rulesFile: string, language: Language): string {
  const localized = language === 'en' ? rulesFile : rulesFile.replace(/\.md$/, `.${language}.md`);
  const key = path.join(dir, localized);
  let text = rulesCache.get(key);
  if (text === undefined) {
    try {
      text = fs.readFileSync(key, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || language === 'en') throw err;
      text = starterRules(dir, rulesFile, 'en');
    }
    rulesCache.set(key, text);
  }
  return text;
}

/**
 * The built-in starter assistants shipped in `resources/assistants/starters.json`, named and worded
 * in `language`. A broken file is a packaging bug, so it fails loudly rather than silently showing
 * no starters.
 */
export function loadStarters(resourcesDir: string, language: Language = 'en'): Assistant[] {
  const dir = path.join(resourcesDir, 'assistants');
  const parsed = readStartersFile(dir);
  if (!parsed) return [];
  const { createdAt, starters } = parsed;
  return starters.map((s): Assistant => ({
    id: s.id,
    name: language === 'en' ? s.name : (s.names[language] ?? s.name),
    agent: s.agent,
    rules: starterRules(dir, s.rulesFile, language),
    skills: s.skills.map((k) => AssistantSkillRefSchema.parse({ ...k, attachedAt: createdAt })),
    defaultWorkspace: null,
    builtin: true,
    createdAt,
    updatedAt: createdAt,
  }));
}

/** Every name each starter has in any language, by starter id (names stay reserved in all of them). */
export function starterNames(resourcesDir: string): Map<string, string[]> {
  const parsed = readStartersFile(path.join(resourcesDir, 'assistants'));
  return new Map((parsed?.starters ?? []).map((s) => [s.id, [s.name, ...Object.values(s.names)]]));
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
