import { jsonStrings } from './recorder.js';

// Read the skill listing out of an agent CLI's first model request, one parser per CLI (the
// registry's `probe.parser` names it). `skilldock verify` and the real-CLI tests (e2e/agents) use
// these same functions, so what the tests prove is what the product shows.

export interface Captured {
  /** Identifier as listed. */
  name: string;
  /** Description exactly as sent; null when only the name is listed. */
  description: string | null;
}

/** Thrown when a request holds no listing: the caller says so in the user's language. */
export class NoListingError extends Error {
  constructor() {
    super('the request carries no skill listing');
  }
}

const CLAUDE_HEAD = /The following skills are (?:also )?available for use with the Skill tool[^\n]*:\n/;

/** Claude Code: the skill listing reminder (`- name: description` or `- name` per skill). */
export function claudeListing(body: unknown): Captured[] {
  const text = jsonStrings(body).find((s) => CLAUDE_HEAD.test(s));
  if (text === undefined) throw new NoListingError();
  const start = text.search(CLAUDE_HEAD);
  const rest = text.slice(start).replace(CLAUDE_HEAD, '').replace(/^\n/, '');
  const block = rest.split(/\n\n/)[0]!;
  const out: Captured[] = [];
  for (const line of block.split('\n')) {
    const m = /^- ([^:\n]+?)(?:: (.*))?$/.exec(line);
    if (m) out.push({ name: m[1]!, description: m[2] ?? null });
    else if (out.length) {
      // A description that spans lines continues the previous entry.
      const last = out[out.length - 1]!;
      last.description = `${last.description ?? ''}\n${line}`;
    }
  }
  return out;
}

/** The entries of an `<available_skills>` block, as `entry` (name, description groups) reads them. */
function availableSkills(body: unknown, entry: RegExp): Captured[] {
  const text = jsonStrings(body).find((s) => s.includes('<available_skills>'));
  if (text === undefined) throw new NoListingError();
  const block = text.slice(text.indexOf('<available_skills>'), text.indexOf('</available_skills>'));
  return [...block.matchAll(entry)].map((m) => ({ name: m[1]!, description: m[2]! }));
}

/** Copilot CLI: the `<available_skills>` block of its system prompt, descriptions as sent (escaped). */
export function copilotListing(body: unknown): Captured[] {
  return availableSkills(
    body,
    /<skill>\n {2}<name>([^<]*)<\/name>\n {2}<description>([^<]*)<\/description>\n {2}<location>[^<]*<\/location>\n<\/skill>\n/g,
  );
}

/** Codex: the `### Available skills` lines of its `<skills_instructions>` (`- name: description (file: …)`). */
export function codexListing(body: unknown): Captured[] {
  const text = jsonStrings(body).find((s) => s.includes('<skills_instructions>') && s.includes('### Available skills'));
  if (text === undefined) throw new NoListingError();
  const start = text.indexOf('### Available skills\n') + '### Available skills\n'.length;
  const end = text.indexOf('\n###', start);
  const out: Captured[] = [];
  for (const line of text.slice(start, end === -1 ? undefined : end).split('\n')) {
    const m = /^- (.+?): (?:(.*) )?\((?:file|environment resource|orchestrator resource|custom resource): [^)]*\)$/.exec(line);
    if (m) out.push({ name: m[1]!, description: m[2] ?? null });
  }
  return out;
}

/** Gemini CLI: the `<available_skills>` block of its main request (descriptions as written, unescaped). */
export function geminiListing(body: unknown): Captured[] {
  return availableSkills(
    body,
    /<skill>\n {4}<name>(.*?)<\/name>\n {4}<description>([\s\S]*?)<\/description>\n {4}<location>[^\n]*<\/location>\n {2}<\/skill>/g,
  );
}

/** Qwen Code: its `<available_skills>` block (one tag per line, descriptions escaped, scope appended). */
export function qwenListing(body: unknown): Captured[] {
  return availableSkills(
    body,
    /<skill>\n<name>\n(.*?)\n<\/name>\n<description>\n([\s\S]*?)\n<\/description>\n<location>\n[^\n]*\n<\/location>\n<\/skill>/g,
  );
}

/** OpenCode: the `<available_skills>` block of its system prompt (descriptions as sent). */
export function opencodeListing(body: unknown): Captured[] {
  return availableSkills(
    body,
    /<skill>\n {4}<name>(.*?)<\/name>\n {4}<description>([\s\S]*?)<\/description>\n {4}<location>[^\n]*<\/location>\n {2}<\/skill>/g,
  );
}

/** The parsers by the registry's `probe.parser` name. */
export const LISTING_PARSERS = {
  claude: claudeListing,
  codex: codexListing,
  copilot: copilotListing,
  gemini: geminiListing,
  opencode: opencodeListing,
  qwen: qwenListing,
} as const satisfies Record<string, (body: unknown) => Captured[]>;

/** Whether a recorded request is a call to a model (not a token, telemetry or model-list request). */
export function isModelCall(r: { method: string; url: string }): boolean {
  return r.method === 'POST' && /messages|responses|chat\/completions|generateContent|streamGenerateContent/.test(r.url);
}
