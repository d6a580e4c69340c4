import fs from 'node:fs';
import { isInside } from '../base/extpath.js';
import type { Inventory, SurfaceCommand, SurfaceFile, SurfaceReason } from '../contract/index.js';
import { inlineCode, markdownLines, SHELL_LANGS, shellCommands, type MdLine } from './markdown.js';
import {
  findSkillFile,
  parseSkillDoc,
  readSkillFolder,
  sha256,
  skillName,
  type ReadOptions,
  type SkillDoc,
  type SkillFile,
  type SkillFolder,
} from './skill-files.js';

// The executable surface of a skill: what in it can make code run on the user's machine. Its digest
// covers exactly that, so editing prose leaves it alone and a one-byte script change moves it.

const SCRIPT_EXT =
  'py|pyw|js|mjs|cjs|ts|mts|cts|sh|bash|zsh|fish|ksh|rb|pl|pm|php|ps1|psm1|bat|cmd|r|R|lua|tcl|applescript|scpt|jl|swift|go|rs|java|kt|scala|groovy|exs|ex';
const RUNNERS =
  'python[0-9.]*|py|node|nodejs|bash|sh|zsh|fish|ksh|ruby|perl|php|pwsh|powershell|deno|bun|tsx|ts-node|Rscript|osascript|lua|julia|swift|go|java|groovy|elixir';

/** An inline code span that is a command: a runner with a script, a package runner, or a path to a script. */
const INLINE_COMMAND = new RegExp(
  String.raw`^(?:sudo\s+)?(?:(?:${RUNNERS})(?:\s+-{1,2}[\w-]+)*\s+["']?[\w./{}$~@:-]+\.(?:${SCRIPT_EXT})\b|(?:uvx|npx|bunx|pnpx|pipx\s+run|uv\s+run|deno\s+run|bun\s+run|go\s+run|cargo\s+run)\s+\S+|\.{0,2}/?[\w./{}$-]*scripts/[\w./-]+\.(?:${SCRIPT_EXT})\b|\./[\w./-]+\.(?:${SCRIPT_EXT})\b)`,
);
/** The same in running prose: "run python scripts/fill.py to...". */
const PROSE_COMMAND = new RegExp(String.raw`\b(?:${RUNNERS})(?:\s+-{1,2}[\w-]+)*\s+["']?[\w./{}$~@:-]+\.(?:${SCRIPT_EXT})\b`, 'g');
const PATH_TOKEN = new RegExp(String.raw`[\w./{}$~@:<>-]*[\w-]\.(?:${SCRIPT_EXT})\b|[\w./{}$~@:<>-]*scripts/[\w./-]+`, 'g');

/** `allowed-tools` entries that hand the agent a shell. Data, so a new agent's tool name is one line. */
export const SHELL_TOOLS = [
  /^bash\b/i,
  /^shell\b/i,
  /^run_shell_command\b/i,
  /^powershell\b/i,
  /^terminal\b/i,
  /^exec(ute)?\b/i,
  /^command\b/i,
];

export interface SkillSource {
  folder: SkillFolder;
  skillFile?: SkillFile;
  /** SKILL.md text (following a link that stays inside the skill). */
  text?: string;
  doc: SkillDoc | null;
  name: string;
  /** Body lines with their Markdown structure (SKILL.md line numbers). */
  lines: MdLine[];
}

/** Read a skill folder and its SKILL.md once, for both the inventory and the scan. */
export function loadSkillSource(dir: string, opts: ReadOptions = {}): SkillSource {
  const folder = readSkillFolder(dir, opts);
  const skillFile = findSkillFile(folder);
  let text = skillFile?.text;
  if (skillFile?.symlink !== undefined) {
    try {
      const real = fs.realpathSync(skillFile.abs);
      if (isInside(real, fs.realpathSync(folder.dir)) && fs.statSync(real).size <= 1024 * 1024) text = fs.readFileSync(real, 'utf8');
    } catch {
      // dangling or escaping link: lint reports it; nothing to read
    }
  }
  const doc = text === undefined ? null : parseSkillDoc(text);
  const lines = doc ? markdownLines(doc.body, doc.bodyLine) : [];
  return { folder, skillFile, text, doc, name: skillName(folder, doc), lines };
}

function referencedFiles(command: string, folder: SkillFolder): string[] {
  const found = new Set<string>();
  for (const m of command.matchAll(PATH_TOKEN)) {
    const token = m[0]
      .replace(/^["'@:]+/, '')
      .replace(/^(\$\{?[A-Za-z_]+\}?|\{[A-Za-z_]+\}|<[^>]+>|~)\//, '')
      .replace(/^(\.\/)+/, '');
    if (!token) continue;
    for (const f of folder.files) {
      if (f.rel === 'SKILL.md') continue;
      if (f.rel === token || token.endsWith(`/${f.rel}`)) found.add(f.rel);
    }
  }
  return [...found].sort();
}

/** Commands the body tells the agent to run, in order. */
export function bodyCommands(src: SkillSource): SurfaceCommand[] {
  const out: SurfaceCommand[] = [];
  const seen = new Set<string>();
  const add = (text: string, line: number, source: SurfaceCommand['source']) => {
    const t = text.replace(/\s+/g, ' ').trim();
    const key = `${line}\u0000${t}`;
    if (!t || seen.has(key)) return;
    seen.add(key);
    out.push({ text: t, line, source, files: referencedFiles(t, src.folder) });
  };
  const blocks = new Map<number, MdLine[]>();
  for (const l of src.lines) if (l.kind === 'code' && l.block !== undefined) blocks.set(l.block, [...(blocks.get(l.block) ?? []), l]);
  const emitted = new Set<number>();
  for (const l of src.lines) {
    if (l.kind === 'code' && l.block !== undefined && !emitted.has(l.block)) {
      emitted.add(l.block);
      const body = blocks.get(l.block) ?? [];
      const lang = l.lang ?? '';
      if (SHELL_LANGS.has(lang)) for (const c of shellCommands(body, lang)) add(c.text, c.line, 'fenced');
      else if (lang === '' || lang === 'text') for (const c of shellCommands(body, 'console')) add(c.text, c.line, 'fenced');
    }
    if (l.kind !== 'prose') continue;
    const spans = inlineCode(l.text);
    for (const s of spans) if (INLINE_COMMAND.test(s.code)) add(s.code, l.line, 'inline');
    let prose = l.text;
    for (const s of spans) prose = prose.replace(s.code, ' ');
    for (const m of prose.matchAll(PROSE_COMMAND)) add(m[0], l.line, 'prose');
  }
  return out;
}

function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
    .join(',')}}`;
}

function jsonSafe(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(
      JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v instanceof Date ? v.toISOString() : v)),
    ) as unknown;
  } catch {
    // A value JSON cannot hold (a cycle): its plain String() text, as digests recorded so far were made.
    // eslint-disable-next-line @typescript-eslint/no-base-to-string
    return String(value);
  }
}

export function surfaceDigest(parts: {
  files: Array<{ path: string; sha256: string }>;
  commands: string[];
  hooks: unknown;
  allowedTools: string | null;
}): string {
  const files = [...parts.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((f) => [f.path, f.sha256]);
  return sha256(canonical({ v: 1, files, commands: parts.commands, hooks: parts.hooks ?? null, allowedTools: parts.allowedTools }));
}

export function inventoryOf(src: SkillSource): Inventory {
  const commands = bodyCommands(src);
  const referenced = new Set(commands.flatMap((c) => c.files));
  const files: SurfaceFile[] = [];
  for (const f of src.folder.files) {
    if (f.rel === 'SKILL.md') continue;
    const reasons: SurfaceReason[] = [];
    if (/^scripts\//.test(f.rel)) reasons.push('scripts-dir');
    if (f.executable) reasons.push('executable-bit');
    if (f.shebang) reasons.push('shebang');
    if (f.binary && (f.binaryKind === 'executable' || f.binaryKind === 'compiled')) reasons.push('binary');
    if (referenced.has(f.rel)) reasons.push('referenced');
    if (!reasons.length) continue;
    const entry: SurfaceFile = { path: f.rel, size: f.size, sha256: f.sha256, executable: f.executable, binary: f.binary, reasons };
    if (f.shebang) entry.shebang = f.shebang;
    if (f.symlink !== undefined) entry.symlink = f.symlink;
    files.push(entry);
  }
  const fm = src.doc?.frontmatter ?? null;
  const hooks = fm && fm.hooks !== undefined && fm.hooks !== null ? jsonSafe(fm.hooks) : null;
  const rawTools = fm?.['allowed-tools'];
  const allowedTools = typeof rawTools === 'string' ? rawTools : Array.isArray(rawTools) ? rawTools.map(String).join(' ') : null;
  const grantsShell =
    allowedTools !== null && allowedTools.split(/[\s,]+(?![^(]*\))/).some((t) => SHELL_TOOLS.some((re) => re.test(t.trim())));
  const digest = surfaceDigest({ files, commands: commands.map((c) => c.text), hooks, allowedTools });
  return {
    dir: src.folder.dir,
    name: src.doc || src.skillFile ? src.name : null,
    files,
    commands,
    hooks,
    allowedTools,
    grantsShell,
    hasExecutableSurface: files.length > 0 || commands.length > 0 || hooks !== null || grantsShell,
    digest,
  };
}

/** The executable surface of the skill in `dir`. */
export function getInventory(dir: string): Inventory {
  return inventoryOf(loadSkillSource(dir));
}
