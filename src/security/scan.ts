import fs from 'node:fs';
import path from 'node:path';
import type { MessageParams, ScanFinding, ScanLevel, ScanReport, ScanSkillReport } from '../contract/index.js';
import { scanWords } from './scan-words.js';
import { fail } from '../errors.js';
import { hiddenMarkdown, invisibleCharacters } from './hidden.js';
import { markdownLines, type MdLine } from './markdown.js';
import { LINE_RULES, type LineContext, type LineRule } from './rules.js';
import { MAX_FILES, MAX_SCAN_BYTES, readOneFile, type SkillFile } from './skill-files.js';
import { inventoryOf, loadSkillSource, type SkillSource } from './surface.js';

// The static security scan: line rules over SKILL.md (prose and code blocks), frontmatter hooks
// and every text file; hidden text; long encoded blobs next to code that runs them; binaries.

const SEVERITY = { high: 'error', medium: 'warning', low: 'info' } as const;
const RANK: Record<ScanLevel, number> = { high: 3, medium: 2, low: 1 };
const MARKDOWN_EXT = /\.(?:md|markdown|mdx|txt|rst|adoc)$/i;
const CODE_EXT =
  /\.(?:py|pyw|js|mjs|cjs|ts|mts|cts|jsx|tsx|sh|bash|zsh|fish|ksh|rb|pl|pm|php|ps1|psm1|bat|cmd|r|lua|tcl|applescript|jl|swift|go|rs|java|kt|scala|groovy|ex|exs)$/i;
/** Generated files nothing runs or reads as instructions (source maps). */
const NOT_RUN_EXT = /\.(?:map)$/i;
/** Lines longer than this (minified code) are scanned in overlapping pieces, keeping regexes fast. */
const CHUNK = 2000;

function make(
  code: ScanFinding['code'],
  level: ScanLevel,
  file: string,
  line: number | undefined,
  column: number | undefined,
  says: string,
  params?: MessageParams,
): ScanFinding {
  const f: ScanFinding = { code, severity: SEVERITY[level], level, ...scanWords(code, says, params), file };
  if (line) f.line = line;
  if (line && column) f.column = column;
  return f;
}

function pieces(text: string): Array<{ text: string; offset: number }> {
  if (text.length <= CHUNK) return [{ text, offset: 0 }];
  const out: Array<{ text: string; offset: number }> = [];
  for (let i = 0; i < text.length; i += CHUNK - 200) out.push({ text: text.slice(i, i + CHUNK), offset: i });
  return out;
}

/** Where one rule first fires on one line (1-based column), or 0: long lines in overlapping pieces. */
export function ruleColumn(rule: LineRule, text: string): number {
  for (const piece of pieces(text)) {
    if (rule.unless?.test(piece.text)) continue;
    let column = 0;
    if (rule.pattern) {
      const m = rule.pattern.exec(piece.text);
      if (m) column = m.index + 1;
    } else if (rule.find) {
      column = rule.find(piece.text) + 1;
    } else if (rule.test) {
      column = rule.test(piece.text);
    }
    if (column) return column + piece.offset;
  }
  return 0;
}

/** Apply the line rules to one line in one context. */
export function scanLine(text: string, context: LineContext, file: string, line: number): ScanFinding[] {
  const out: ScanFinding[] = [];
  for (const rule of LINE_RULES) {
    const level = rule.levels[context];
    if (!level) continue;
    const column = ruleColumn(rule, text);
    if (column) out.push(make(rule.code, level, file, line, column, rule.says));
  }
  return out;
}

const BLOB = /(?:[A-Za-z0-9+/]{200,}={0,2})|(?:\b[0-9a-fA-F]{200,}\b)|(?:(?:\\x[0-9a-fA-F]{2}){40,})|(?:(?:\\u00[0-9a-fA-F]{2}){40,})/;
const DATA_URI = /data:[\w/+.-]+;base64,/;
const RUNS_CODE =
  /(?<![\w.])(?:exec|eval|compile|Function|iex|Invoke-Expression|os\.system|subprocess|child_process|execSync|spawn|popen|system)\s*\(|\|\s*(?:ba|z)?sh\b|\|\s*(?:python[0-9.]*|perl|ruby|node)\s*(?:-\s*)?$|\s-(?:e|ec|enc|encodedcommand)\s|\bsource\s|\beval\s/im;

/** A long encoded blob in code that can run it: how obfuscated payloads ship. */
function blobFindings(lines: Array<{ text: string; line: number }>, file: string, isCode: boolean): ScanFinding[] {
  const blobs = lines.filter((l) => BLOB.test(l.text) && !DATA_URI.test(l.text));
  if (!blobs.length) return [];
  const runs = lines.some((l) => RUNS_CODE.test(l.text));
  if (runs) {
    return blobs.slice(0, 3).map((l) => make('scan-obfuscation', 'high', file, l.line, undefined, 'blob-runs'));
  }
  if (!isCode) return [];
  return [make('scan-obfuscation', 'low', file, blobs[0].line, undefined, 'blob')];
}

function hookStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((v) => hookStrings(v, out));
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => hookStrings(v, out));
  return out;
}

function scanMarkdownLines(lines: MdLine[], file: string): ScanFinding[] {
  const out: ScanFinding[] = [];
  const blocks = new Map<number, Array<{ text: string; line: number }>>();
  for (const l of lines) {
    if (l.kind === 'fence-delimiter') continue;
    out.push(...scanLine(l.text, l.kind === 'code' ? 'code' : 'prose', file, l.line));
    if (l.kind === 'code' && l.block !== undefined) blocks.set(l.block, [...(blocks.get(l.block) ?? []), l]);
  }
  for (const block of blocks.values()) out.push(...blobFindings(block, file, false));
  out.push(...hiddenMarkdown(lines, file));
  return out;
}

function binaryFinding(f: SkillFile): ScanFinding | null {
  const label = f.binaryLabel ?? { key: 'scan.binary-label.unknown' };
  switch (f.binaryKind) {
    case 'executable':
      return make('scan-binary', 'high', f.abs, undefined, undefined, 'executable', { label });
    case 'compiled':
      return make('scan-binary', 'medium', f.abs, undefined, undefined, 'compiled', { label });
    case 'archive':
      return make('scan-binary', 'low', f.abs, undefined, undefined, 'archive', { label });
    case 'unknown':
      return make('scan-binary', 'medium', f.abs, undefined, undefined, 'unknown');
    default:
      return null;
  }
}

/** Scan one file of a skill (or a lone file). */
export function scanFile(f: SkillFile): ScanFinding[] {
  if (f.symlink !== undefined) return [];
  if (f.binary) {
    const b = binaryFinding(f);
    return b ? [b] : [];
  }
  if (f.tooLarge || f.text === undefined) {
    return [make('scan-unscanned', 'low', f.abs, undefined, undefined, 'too-large', { mb: MAX_SCAN_BYTES / 1024 / 1024 })];
  }
  if (MARKDOWN_EXT.test(f.rel)) {
    return [...scanMarkdownLines(markdownLines(f.text), f.abs), ...invisibleCharacters(f.text, f.abs, 'markdown')];
  }
  if (NOT_RUN_EXT.test(f.rel)) return [];
  // Code runs; data (JSON, YAML, templates...) is read, so it is judged like prose.
  const isCode = CODE_EXT.test(f.rel) || Boolean(f.shebang) || f.executable || /^scripts\//.test(f.rel);
  const out: ScanFinding[] = [];
  const lines = f.text.split(/\r?\n/).map((text, i) => ({ text, line: i + 1 }));
  for (const l of lines) out.push(...scanLine(l.text, isCode ? 'script' : 'prose', f.abs, l.line));
  out.push(...blobFindings(lines, f.abs, isCode));
  out.push(...invisibleCharacters(f.text, f.abs, isCode ? 'script' : 'markdown'));
  return out;
}

/** Keep one finding per code and line (the most severe), sorted by file and line. */
export function dedupe(findings: ScanFinding[]): ScanFinding[] {
  const best = new Map<string, ScanFinding>();
  for (const f of findings) {
    const key = `${f.code}\u0000${f.file}\u0000${f.line ?? 0}`;
    const prev = best.get(key);
    if (!prev || RANK[f.level] > RANK[prev.level]) best.set(key, f);
  }
  return [...best.values()].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : (a.line ?? 0) - (b.line ?? 0) || a.code.localeCompare(b.code),
  );
}

export function scanSource(src: SkillSource): ScanFinding[] {
  const out: ScanFinding[] = [];
  const skillMd = src.skillFile?.abs ?? path.join(src.folder.dir, 'SKILL.md');
  if (src.text !== undefined) {
    out.push(...scanMarkdownLines(src.lines, skillMd));
    out.push(...invisibleCharacters(src.text, skillMd, 'markdown'));
    const hooks = src.doc?.frontmatter?.hooks;
    if (hooks !== undefined && hooks !== null) {
      const line = src.doc?.keyLines.hooks ?? 1;
      for (const s of hookStrings(hooks)) out.push(...scanLine(s, 'script', skillMd, line));
    }
  }
  for (const f of src.folder.files) if (f.rel !== 'SKILL.md') out.push(...scanFile(f));
  if (src.folder.truncated) {
    out.push(make('scan-unscanned', 'low', src.folder.dir, undefined, undefined, 'truncated', { max: MAX_FILES }));
  }
  return dedupe(out);
}

export function scanSkillDir(dir: string): ScanSkillReport {
  const src = loadSkillSource(dir);
  const inv = inventoryOf(src);
  return {
    name: inv.name,
    dir: src.folder.dir,
    findings: scanSource(src),
    surfaceDigest: inv.digest,
    hasExecutableSurface: inv.hasExecutableSurface,
  };
}

function scanLoneFile(file: string): ScanSkillReport {
  const f = readOneFile(file);
  return { name: null, dir: file, findings: dedupe(scanFile(f)), surfaceDigest: f.sha256, hasExecutableSurface: !MARKDOWN_EXT.test(f.rel) };
}

/** Skill dirs at or below `dir` (a skill, a root of skills, or a repository holding roots). */
export function findSkillDirs(dir: string, depth = 4): string[] {
  if (fs.existsSync(path.join(dir, 'SKILL.md'))) return [dir];
  if (depth === 0) return [];
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    if (name === '.git' || name === 'node_modules') continue;
    const child = path.join(dir, name);
    try {
      if (fs.statSync(child).isDirectory()) out.push(...findSkillDirs(child, depth - 1));
    } catch {
      // dangling link: lint reports those
    }
  }
  return out;
}

export function summarize(skills: ScanSkillReport[]): ScanReport {
  const all = skills.flatMap((s) => s.findings);
  return {
    skills,
    summary: {
      skills: skills.length,
      high: all.filter((f) => f.level === 'high').length,
      medium: all.filter((f) => f.level === 'medium').length,
      low: all.filter((f) => f.level === 'low').length,
    },
  };
}

/** `skilldock scan <path>...`: skills, roots of skills, plain folders or single files. */
export function scanPaths(paths: string[], cwd = process.cwd()): ScanReport {
  const skills: ScanSkillReport[] = [];
  for (const p of paths) {
    const abs = path.resolve(cwd, p);
    let st: fs.Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      throw fail('not-found', 'path.missing', { path: p });
    }
    if (st.isFile()) {
      skills.push(scanLoneFile(abs));
      continue;
    }
    const dirs = findSkillDirs(abs);
    if (!dirs.length) dirs.push(abs); // a folder without skills is scanned as it is
    for (const d of dirs) skills.push(scanSkillDir(d));
  }
  return summarize(skills);
}
