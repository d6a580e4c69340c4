import fs from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import type { CatalogEntry } from '../contract/index.js';
import { parseSkillText } from '../skills/index.js';
import { hiddenFromListing, type AgentDef } from '../agents/registry.js';

// How an agent words one skill in the listing its model receives, and which descriptions its
// catalog budget keeps. Every rule comes from the registry's `listing` record, measured by capturing
// the real CLI's model request (e2e/agents/listing.test.ts); nothing here names an agent.

export type ListingModel = NonNullable<AgentDef['listing']>;

export interface ListedSkill {
  /** The identifier as listed (`dir`, or `dir (name)` when the agent shows both). */
  label: string;
  /** The description as sent before the budget (cut to the per-skill cap, escaped). */
  description: string;
  /** The description was cut to the per-skill cap. */
  capped: boolean;
  /** The description is not the frontmatter's (first body line, or the agent's placeholder). */
  fallback: boolean;
  /** Where the agent found it: its scope decides the order and the location a listing names. */
  scope?: 'project' | 'user';
  /** Its `SKILL.md` relative to the root it was found in (`dir/SKILL.md`). */
  path?: string;
  /** The description as sent past a `first-line` budget (its first line, trimmed, escaped). */
  firstLine?: string;
  /** Left out of the listing by the agent's `hiddenBy` rule (the model cannot invoke it). */
  hidden?: boolean;
}

/** A frontmatter block the agent reads: only a `---` line at the very start (after a BOM). */
function splitBlock(text: string): { block: string; body: string } | null {
  if (!text.startsWith('---\n')) return null;
  const close = text.indexOf('\n---', 3);
  if (close === -1) return null;
  const after = text.indexOf('\n', close + 4);
  const rest = after === -1 ? '' : text.slice(after + 1);
  const closing = text.slice(close + 1, after === -1 ? undefined : after);
  if (closing.trim() !== '---') return null;
  return { block: text.slice(4, close + 1), body: rest };
}

/** `key: value` lines read as text: what an agent falls back to when the YAML does not parse. */
function lenientFields(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.split('\n')) {
    const m = /^([A-Za-z_][\w-]*):[ \t]*(.*)$/.exec(line);
    if (m && !(m[1]! in out)) out[m[1]!] = m[2]!.trim();
  }
  return out;
}

function asText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

/** `field` is written as a block scalar (`>` or `|`) without the keep indicator `+`. */
function blockScalarField(block: string, field: string): boolean {
  const line = block.split('\n').find((l) => l.startsWith(`${field}:`));
  return line !== undefined && /^[\w-]+:[ \t]*[|>][1-9-]*[ \t]*(#.*)?$/.test(line);
}

/** The first non-blank line of the body, without Markdown heading marks (or skipping headings). */
function firstBodyLine(body: string, skipHeadings = false): string {
  for (const line of body.split('\n')) {
    const t = line.trim();
    if (!t || (skipHeadings && t.startsWith('#'))) continue;
    return t.replace(/^#+\s*/, '');
  }
  return '';
}

/** How `model`'s agent lists the skill in folder `dirName` whose SKILL.md holds `raw`. */
export function listSkill(model: ListingModel, dirName: string, raw: string, scope: 'project' | 'user' = 'user'): ListedSkill {
  let text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  text = text.replace(/\r\n/g, '\n');
  if (model.openingTrimmed) text = text.replace(/^[ \t]+(?=---)/, '');
  const split = splitBlock(text);
  let fields: Record<string, unknown> = {};
  let body = text;
  if (split) {
    body = split.body;
    const parsed = parseSkillText(text, 'SKILL.md');
    fields = parsed.frontmatter ?? lenientFields(split.block);
  }
  const name = asText(fields.name);
  const label =
    model.label === 'dir-and-name' && name && name !== dirName ? `${dirName} (${name})` : model.label === 'name' && name ? name : dirName;

  const trim = (v: string) => (model.trim ? v.trim() : v);
  const text_ = (f: string) => {
    const v = asText(fields[f]) ?? '';
    return split && model.blockScalarStrip && blockScalarField(split.block, f) ? v.replace(/\n+$/, '') : v;
  };
  const parts = model.fields.map((f) => trim(text_(f))).filter((s) => s !== '');
  let description = parts.join(model.joiner);
  let fallback = false;
  const missing = model.fallbackWhen === 'absent' ? model.fields.every((f) => fields[f] === undefined || fields[f] === null) : !description;
  if (missing && model.fallback) {
    description = firstBodyLine(body, model.fallback === 'first-body-text-line') || model.emptyFallback;
    fallback = true;
  }
  if (model.collapseWhitespace) description = description.replace(/\s+/g, ' ').trim();
  if (model.firstLineOnly) description = description.split('\n')[0]!.trim();
  const finish = (d: string) => {
    for (const [from, to] of Object.entries(model.escape)) d = d.split(from).join(to);
    if (model.maxNewlines) d = d.replace(new RegExp(`\n{${model.maxNewlines + 1},}`, 'g'), '\n'.repeat(model.maxNewlines));
    return model.suffix ? d + model.suffix[scope] : d;
  };
  // Past a `first-line` budget: the first field alone, its first line trimmed (measured on Qwen Code).
  const firstLine =
    model.budget?.overflow === 'first-line' && !fallback ? finish(text_(model.fields[0]!).split('\n')[0]!.trim()) : undefined;
  description = finish(description);
  let capped = false;
  const cap = model.cap;
  if (cap && cap.unit === 'code-points') {
    const chars = [...description];
    if (chars.length > cap.chars) {
      description = chars.slice(0, cap.chars - [...cap.marker].length).join('') + cap.marker;
      capped = true;
    }
  } else if (cap && description.length > cap.chars) {
    // UTF-16 code units (String length): an emoji counts two.
    description = description.slice(0, cap.chars - cap.marker.length) + cap.marker;
    capped = true;
  }
  const listed: ListedSkill = { label, description, capped, fallback, ...(firstLine === undefined ? {} : { firstLine }) };
  if (model.hiddenBy && hiddenFromListing(model.hiddenBy, model.hiddenBy.field, fields[model.hiddenBy.field])) listed.hidden = true;
  return listed;
}

export type Shown = 'full' | 'shortened' | 'name-only' | 'left-out';

export interface Allocation {
  skills: Shown[];
  builtins: Shown[];
  /** Characters of each skill's description kept, where it is `shortened`. */
  kept?: number[];
  /** The description as sent, where it is `shortened` to something other than its first `kept` characters. */
  texts?: Array<string | undefined>;
  /** The listing's size as the agent counts it against its budget, where the mode defines one. */
  used?: number;
}

/**
 * The fate of `skills` and of the agent's own skills under its budget. `name-only` (measured on
 * Claude Code, whose code reads the same): when the whole listing is over budget, its fixed built-in
 * skills stay in full and every other skill starts as its name alone; then, in listing order (the
 * user's skills, then the agent's other skills), each gets its description back while the listing
 * still fits, so a later, shorter one may fit where an earlier one did not. Names are always listed.
 * `roots`: the absolute folders the skills were found in (a `share-tokens` alias table lists them).
 */
export function allocateListing(model: ListingModel, skills: ListedSkill[], roots: string[] = []): Allocation {
  const budget = model.budget;
  const all = (): Allocation => ({
    skills: skills.map(() => 'full'),
    builtins: model.builtins.map(() => 'full'),
  });
  if (!budget) return all();
  if (budget.overflow === 'drop-rest') return dropRest(model, skills);
  if (budget.overflow === 'share-tokens') return shareTokens(model, skills, roots);
  if (budget.overflow === 'first-line') return firstLines(model, skills);
  // Claude Code measures each line in terminal columns (a CJK character is two), not UTF-16 units.
  const width = budget.width === 'display' ? stringWidth : (s: string) => s.length;
  const lines = [
    ...skills.map((s) => ({ name: width(`- ${s.label}`), extra: width(`: ${s.description}`), fixed: false })),
    ...model.builtins.map((b) => ({
      name: width(`- ${b.name}`),
      extra: 2 + (budget.width === 'display' ? (b.width ?? b.descriptionChars) : b.descriptionChars),
      fixed: b.fixed,
    })),
  ];
  const newlines = Math.max(0, lines.length - 1);
  const fullTotal = lines.reduce((n, l) => n + l.name + l.extra, 0) + newlines;
  if (fullTotal <= budget.chars) return all();
  let total = lines.reduce((n, l) => n + l.name + (l.fixed ? l.extra : 0), 0) + newlines;
  const shown: Shown[] = lines.map((l) => {
    if (l.fixed) return 'full';
    if (total + l.extra > budget.chars) return 'name-only';
    total += l.extra;
    return 'full';
  });
  return { skills: shown.slice(0, skills.length), builtins: shown.slice(skills.length) };
}

/** Characters of one entry as a `drop-rest` budget renders it. */
export function entryChars(model: ListingModel, label: string, descriptionChars: number, scope: 'project' | 'user' | 'builtin'): number {
  const b = model.budget!;
  const template = b.entry ?? '{label}{description}';
  const location = b.locations?.[scope] ?? '';
  return template.replace('{label}', label).replace('{description}', '').replace('{location}', location).length + descriptionChars;
}

/** Entries counted in listing order; the first that does not fit and all after it are left out. */
function dropRest(model: ListingModel, skills: ListedSkill[]): { skills: Shown[]; builtins: Shown[] } {
  const limit = model.budget!.chars;
  let total = 0;
  let full = true;
  const fits = (chars: number): Shown => {
    if (full && total + chars <= limit) {
      total += chars;
      return 'full';
    }
    full = false;
    return 'left-out';
  };
  return {
    skills: skills.map((s) => fits(entryChars(model, s.label, s.description.length, s.scope ?? 'user'))),
    builtins: model.builtins.map((b) => fits(entryChars(model, b.name, b.descriptionChars, 'builtin'))),
  };
}

/**
 * `first-line` (measured on Qwen Code, whose code reads the same): the whole listing block, its own
 * skills included, is measured with every description as written; over the budget, each other
 * skill's description becomes its first line (a skill already that short is unchanged).
 */
function firstLines(model: ListingModel, skills: ListedSkill[]): Allocation {
  const entries = [
    ...skills.map((s) => entryChars(model, s.label, s.description.length, s.scope ?? 'user')),
    ...model.builtins.map((b) => entryChars(model, b.name, b.descriptionChars, 'builtin')),
  ];
  const used = entries.reduce((n, c) => n + c, 0) + Math.max(0, entries.length - 1);
  const builtins: Shown[] = model.builtins.map(() => 'full');
  if (used <= model.budget!.chars) return { skills: skills.map(() => 'full'), builtins, used };
  const short = skills.map((s) => (s.firstLine !== undefined && s.firstLine !== s.description ? s.firstLine : undefined));
  return {
    skills: short.map((t) => (t === undefined ? 'full' : 'shortened')),
    builtins,
    kept: short.map((t, i) => (t === undefined ? skills[i]!.description : t).length),
    texts: short,
    used,
  };
}

interface ShareLine {
  /** UTF-8 bytes of the line without a description, with its line break. */
  minBytes: number;
  /** UTF-8 bytes of each character of the description. */
  charBytes: number[];
}

/**
 * A budget in approximate tokens (UTF-8 bytes / bytesPerToken, rounded up, per line): when the
 * full listing is over it and the lines without descriptions fit, the room left is shared out one
 * character at a time, line after line in listing order, each taking a character while its line's
 * cost still fits; past that, lines without descriptions are kept in order while they fit.
 */
function shareTokens(model: ListingModel, skills: ListedSkill[], roots: string[]): Allocation {
  const b = model.budget!;
  const per = b.bytesPerToken ?? 4;
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
  const tokens = (n: number) => Math.ceil(n / per);
  const limit = (b.tokens ?? b.chars) - rootTableTokens(b, roots, bytes, tokens);
  const render = (template: string, label: string, description: string, where: string) =>
    template.replace('{label}', label).replace('{description}', description).replace('{path}', where);
  const lineOf = (label: string, description: string, where: string): ShareLine => ({
    minBytes: bytes(render(b.emptyEntry ?? '{label}', label, '', where)) + 1,
    charBytes: [...description].map((c) => bytes(c)),
  });
  const own = model.builtins.map((x) => ({ line: lineOf(x.name, 'x'.repeat(x.descriptionChars), x.path ?? ''), builtin: true }));
  const users = skills.map((s) => ({ line: lineOf(s.label, s.description, s.path ?? ''), builtin: false }));
  const ordered = model.order === 'builtins-then-scope-then-label' ? [...own, ...users] : [...users, ...own];
  const lines = ordered.map((x) => x.line);
  const descBytes = (l: ShareLine, n: number) => l.charBytes.slice(0, n).reduce((a, c) => a + c, 0);
  // A line with a description has it after `: ` with one space more than the line without.
  const fullCost = (l: ShareLine) => tokens(l.minBytes + (l.charBytes.length ? descBytes(l, l.charBytes.length) + 1 : 0));
  const minCost = (l: ShareLine) => tokens(l.minBytes);
  const kept: number[] = lines.map((l) => l.charBytes.length);
  let shown: Shown[];
  if (lines.reduce((n, l) => n + fullCost(l), 0) <= limit) {
    shown = lines.map(() => 'full');
  } else if (lines.reduce((n, l) => n + minCost(l), 0) <= limit) {
    let remaining = limit - lines.reduce((n, l) => n + minCost(l), 0);
    const alloc = lines.map(() => 0);
    const extra = lines.map(() => 0);
    const extraAt = (l: ShareLine, n: number) => tokens(l.minBytes + descBytes(l, n) + 1) - minCost(l);
    for (let changed = true; changed;) {
      changed = false;
      lines.forEach((l, i) => {
        if (alloc[i]! >= l.charBytes.length) return;
        const next = extraAt(l, alloc[i]! + 1);
        const delta = next - extra[i]!;
        if (delta <= remaining) {
          alloc[i]! += 1;
          extra[i] = next;
          remaining -= delta;
          changed = true;
        }
      });
    }
    shown = lines.map((l, i) => (alloc[i] === l.charBytes.length ? 'full' : alloc[i] === 0 ? 'name-only' : 'shortened'));
    alloc.forEach((n, i) => (kept[i] = n));
  } else {
    let used = 0;
    shown = lines.map((l) => {
      if (used + minCost(l) > limit) return 'left-out';
      used += minCost(l);
      return 'name-only';
    });
  }
  const pick = <T>(xs: T[], builtin: boolean) => xs.filter((_, i) => ordered[i]!.builtin === builtin);
  return { skills: pick(shown, false), builtins: pick(shown, true), kept: pick(kept, false) };
}

/**
 * Tokens the root alias table takes off a `share-tokens` budget: one line per root that holds a
 * listed skill (the agent's own root among them), less the bytes its shorter wording saves; never
 * below zero (measured on Codex 0.171.0 with home folders of four lengths).
 */
function rootTableTokens(
  b: NonNullable<ListingModel['budget']>,
  roots: string[],
  bytes: (s: string) => number,
  tokens: (n: number) => number,
): number {
  const t = b.rootTable;
  if (!t) return 0;
  const all = [...new Set(roots)];
  const table = all.reduce((n, root, i) => n + bytes(t.line.replace('{index}', String(i)).replace('{root}', root)), 0);
  return Math.max(0, tokens(table - t.freeBytes));
}

/** Listing order: by label, code point by code point. */
export function listingOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The language an agent CLI on Node sorts by with `localeCompare`: ICU takes it from LC_ALL, then
 * LC_MESSAGES, then LANG (`sv_SE.UTF-8` is `sv-SE`; `C` and `POSIX` are English); undefined: none set
 * (Unicode's root collation). Measured: Qwen Code with LC_ALL=sv_SE.UTF-8 lists `ägypten` after `zeta`.
 */
export function environmentLocale(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env.LC_ALL || env.LC_MESSAGES || env.LANG;
  if (!raw) return undefined;
  const base = raw.split(/[.@]/)[0]!;
  if (base === 'C' || base === 'POSIX') return 'en-US';
  const tag = base.replace(/_/g, '-');
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/** A comparer of labels for a collation-based order, or null for the other orders. */
export function labelCollator(
  order: ListingModel['order'],
  env: NodeJS.ProcessEnv = process.env,
): ((a: string, b: string) => number) | null {
  if (order === 'locale') return new Intl.Collator(environmentLocale(env)).compare;
  if (order === 'root-collation') return new Intl.Collator('und').compare;
  return null;
}

const MAX_SKILL_FILE = 4 * 1024 * 1024;

/** The entry's `SKILL.md` as text (through a link, as agents read it); null when absent or too big. */
export function readSkillFile(entry: CatalogEntry): string | null {
  const file = path.join(entry.provenance.dir, 'SKILL.md');
  try {
    const st = fs.statSync(file);
    if (!st.isFile() || st.size > MAX_SKILL_FILE) return null;
    // Exact case: `skill.md` is a different file to the agents that read `SKILL.md`.
    if (!fs.readdirSync(entry.provenance.dir).includes('SKILL.md')) return null;
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
