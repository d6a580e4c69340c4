import { LineCounter, parseDocument, visit, isAlias, isMap, isScalar, isCollection, type Document } from 'yaml';
import type { Diagnostic, MessageParams } from '../contract/index.js';
import type { Registry } from '../agents/registry.js';
import { kindOf, makeDiagnostic, type DiagnosticInit } from './rules.js';
import { parseSimpleYaml } from './simple-yaml.js';
import { CodeRefused, splitFrontmatter } from './matter-split.js';

// Safe SKILL.md parsing. Frontmatter is data from the internet: it is never evaluated, alias
// expansion is bounded, and every problem becomes a diagnostic instead of an exception.

/** Alias expansions allowed before a document counts as a "billion laughs" attack. */
const MAX_ALIAS_COUNT = 20;

export interface ParsedSkill {
  /** Every frontmatter field, JSON-safe; null when there is no usable frontmatter map. */
  frontmatter: Record<string, unknown> | null;
  body: string;
  /** 1-based line of the file where the body starts. */
  bodyLine: number;
  /** 1-based line of the opening `---`, null without frontmatter. */
  frontmatterLine: number | null;
  /** 1-based file line of each top-level key, and of `metadata.<key>` entries. */
  keyLines: Record<string, number>;
  diagnostics: Diagnostic[];
  hadBom: boolean;
  crlf: boolean;
}

interface YamlResult {
  value: unknown;
  ok: boolean;
}

/** Pure parse of SKILL.md text (no disk). `registry` only fills the `agents` of diagnostics. */
export function parseSkillText(raw: string, file: string, registry?: Registry): ParsedSkill {
  const diagnostics: Diagnostic[] = [];
  const diag = (code: string, init: Omit<DiagnosticInit, 'file'>) => diagnostics.push(makeDiagnostic(code, { ...init, file }, registry));

  const hadBom = raw.charCodeAt(0) === 0xfeff;
  let text = hadBom ? raw.slice(1) : raw;
  const crlf = text.includes('\r\n');
  if (crlf) text = text.replace(/\r\n/g, '\n');

  const result: ParsedSkill = {
    frontmatter: null,
    body: text,
    bodyLine: 1,
    frontmatterLine: null,
    keyLines: {},
    diagnostics,
    hadBom,
    crlf,
  };

  const opening = openFrontmatter(text, hadBom, diag);
  if (!opening) return result;
  const { start, openLine } = opening;
  result.frontmatterLine = openLine;

  const src = text.slice(start);
  const eol = src.indexOf('\n');
  const language = (eol === -1 ? src.slice(3) : src.slice(3, eol)).trim().toLowerCase();
  const closeAt = eol === -1 ? -1 : src.indexOf('\n---', eol);

  if (language && language !== 'yaml' && language !== 'yml') {
    diag('frontmatter-code', {
      says: 'language',
      params: { language: language.slice(0, 40) },
      line: openLine,
    });
    if (closeAt !== -1) setBodyAfter(result, src, closeAt + 4, openLine);
    else setBody(result, '', openLine + 1);
    return result;
  }
  if (closeAt === -1) {
    diag('frontmatter-unclosed', { says: 'message', line: openLine });
    setBody(result, eol === -1 ? '' : src.slice(eol + 1), openLine + 1);
    return result;
  }

  // A copy, not a slice: the values parsed from it live on in the catalog, and a slice would keep
  // the whole file text alive with them (V8 slices point into their parent string).
  const block = detachString(src.slice(eol, closeAt));
  checkBlock(block, openLine - 1, diag);
  const simple = parseSimpleYaml(block);
  if (simple) {
    // Plain `key: value` lines, the common case: nothing for gray-matter or the full YAML parser
    // to decide (the block is split above exactly as gray-matter splits it, and it is not empty).
    for (const [k, l] of simple.keyLines) result.keyLines[k] = openLine - 1 + l;
    setBodyAfter(result, src, closeAt + 4, openLine);
    result.frontmatter = simple.value;
    return result;
  }
  readThroughGrayMatter(result, src, block, closeAt, openLine, diag);
  return result;
}

/**
 * Where the frontmatter's `---` starts and its line, with what comes before it (a BOM, blank lines,
 * indentation) reported; null, reported as missing, when the text does not open with one.
 */
function openFrontmatter(text: string, hadBom: boolean, diag: Diag): { start: number; openLine: number } | null {
  // Skip blank lines and indentation: agents disagree on them, so we parse on and report.
  let start = 0;
  while (start < text.length && (text[start] === '\n' || text[start] === ' ' || text[start] === '\t')) start++;
  const opens = text.startsWith('---', start) && text[start + 3] !== '-';
  if (!opens) {
    diag('frontmatter-missing', { says: 'message', line: 1 });
    return null;
  }
  const lead = text.slice(0, start);
  const openLine = countNewlines(lead, 0, lead.length) + 1;
  if (hadBom) {
    diag('frontmatter-not-first', {
      says: 'bom',
      line: 1,
      column: 1,
      variant: 'bom',
    });
  }
  if (lead.length) {
    const says = lead.includes('\n') ? 'blank-lines' : 'indentation';
    diag('frontmatter-not-first', { says, line: openLine, variant: says === 'indentation' ? 'indent' : 'blank' });
  }
  return { start, openLine };
}

/**
 * A block the simple reader cannot decide: gray-matter splits the frontmatter, our engines read it
 * (YAML through readYaml; JavaScript, JSON and CoffeeScript refused), and the result must be a map.
 */
function readThroughGrayMatter(result: ParsedSkill, src: string, block: string, closeAt: number, openLine: number, diag: Diag): void {
  const yamlOut: YamlResult = { value: undefined, ok: false };
  // Only the frontmatter goes through gray-matter (it hashes its whole input for a cache lookup).
  const closeEnd = src.indexOf('\n', closeAt + 4);
  const head = guardBlankLines(closeEnd === -1 ? src : src.slice(0, closeEnd));
  let gm: { content: string; matter: string; isEmpty?: boolean };
  try {
    // Reads our own copy of the block: gray-matter is given a guarded one (see guardBlankLines).
    gm = splitFrontmatter(head, () => Object.assign(yamlOut, readYaml(block, openLine - 1, diag, result.keyLines)));
  } catch (err) {
    if (err instanceof CodeRefused) diag('frontmatter-code', { says: 'refused', line: openLine });
    else diag('frontmatter-yaml', { says: 'unreadable', params: { detail: (err as Error).message }, line: openLine });
    setBodyAfter(result, src, closeAt + 4, openLine);
    return;
  }
  setBodyAfter(result, src, closeAt + 4, openLine);

  if (gm.isEmpty) {
    diag('frontmatter-not-map', { says: 'empty', line: openLine });
    return;
  }
  if (!yamlOut.ok) return;
  const v = yamlOut.value;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    const kind = kindOf(v === null ? undefined : v);
    diag('frontmatter-not-map', { says: 'kind', params: { kind }, line: openLine + 1 });
    return;
  }
  result.frontmatter = v as Record<string, unknown>;
}

function guardBlankLines(head: string): string {
  return /\n[^\S\n]*\n/.test(head) ? head.replace(/^[^\S\n]*$/gm, '#') : head;
}

function setBody(r: ParsedSkill, body: string, line: number): void {
  r.body = body;
  r.bodyLine = line;
}

/** Body after the closing delimiter line that starts at `afterDashes - 4` in `src`. */
function setBodyAfter(r: ParsedSkill, src: string, afterDashes: number, openLine: number): void {
  const nl = src.indexOf('\n', afterDashes);
  const from = nl === -1 ? src.length : nl + 1;
  setBody(r, src.slice(from), openLine + countNewlines(src, 0, from));
}

/** The same text in its own storage (not a slice of a larger string). */
export function detachString(s: string): string {
  return (' ' + s).slice(1);
}

export function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i !== -1 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

type Diag = (code: string, init: Omit<DiagnosticInit, 'file'>) => void;

/** Findings on the raw block, whichever parser reads it: tabs, and `---` inside it. */
function checkBlock(block: string, lineBase: number, diag: Diag): void {
  const tab = block.indexOf('\t');
  if (tab !== -1) {
    const line = countNewlines(block, 0, tab) + 1;
    diag('frontmatter-strict', {
      says: 'tab',
      line: lineBase + line,
      column: tab - block.lastIndexOf('\n', tab - 1),
    });
  }
  for (let i = block.indexOf('---'); i !== -1; i = block.indexOf('---', i + 3)) {
    diag('frontmatter-dashes-in-value', {
      says: 'message',
      line: lineBase + countNewlines(block, 0, i) + 1,
      column: i - block.lastIndexOf('\n', i - 1),
    });
    while (block[i + 3] === '-') i++;
  }
}

/**
 * Parse the frontmatter block (starting right after `---`, so its line 1 is the `---` line's
 * remainder). `lineBase` + block line = file line.
 */
function readYaml(block: string, lineBase: number, diag: Diag, keyLines: Record<string, number>): YamlResult {
  const strictAt: StrictAt = (says, line, column, params) => diag('frontmatter-strict', { says, params, line: lineBase + line, column });
  const lenient = quoteColonValues(block, (line) =>
    diag('frontmatter-strict', { says: 'colon', line: lineBase + line, variant: 'colon', fixSays: 'fix-colon' }),
  );

  const lc = new LineCounter();
  const doc = parseDocument(lenient, {
    schema: 'core',
    customTags: ['timestamp'],
    uniqueKeys: false,
    lineCounter: lc,
    prettyErrors: true,
  });
  const pos = (offset: number) => lc.linePos(offset);
  if (doc.errors.length) {
    const e = doc.errors[0];
    const at = e.linePos?.[0] ?? pos(e.pos[0]);
    const first = e.message.split('\n', 1)[0].replace(/ at line \d+, column \d+:?$/, '');
    diag('frontmatter-yaml', { says: 'error', params: { detail: first }, line: lineBase + at.line, column: at.col });
    return { value: undefined, ok: false };
  }
  for (const w of doc.warnings) {
    const at = w.linePos?.[0] ?? pos(w.pos[0]);
    strictAt('yaml-warning', at.line, at.col, { detail: w.message.split('\n', 1)[0] });
  }
  checkStrictNodes(doc, pos, strictAt);
  recordKeyLines(doc, pos, lineBase, keyLines);

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    diag('frontmatter-yaml', { says: 'refused', params: { detail: (err as Error).message }, line: lineBase + 2 });
    return { value: undefined, ok: false };
  }
  return { value: jsonSafe(value, 0), ok: true };
}

type Pos = (offset: number) => { line: number; col: number };

type StrictAt = (says: string, line: number, column?: number, params?: MessageParams) => void;

function checkStrictNodes(doc: Document, pos: Pos, strictAt: StrictAt): void {
  let flow = false;
  let anchors = false;
  const at = (node: { range?: [number, number, number] | null }) => pos(node.range?.[0] ?? 0);
  // yaml's visit() calls only the most specific visitor, so one `Node` visitor does every check.
  visit(doc, {
    Node(_k, node) {
      if (!anchors && (isAlias(node) || (node as { anchor?: string }).anchor)) {
        const p = at(node);
        strictAt(isAlias(node) ? 'alias' : 'anchor', p.line, p.col);
        anchors = true;
      }
      if (!isCollection(node)) return;
      if (!flow && node.flow) {
        const p = at(node);
        strictAt('flow', p.line, p.col);
        flow = true;
      }
      if (!isMap(node)) return;
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const key = pair.key.value;
        if (seen.has(key)) {
          const p = at(pair.key);
          strictAt('duplicate', p.line, p.col, { key: String(key) });
        }
        seen.add(key);
      }
    },
  });
}

function recordKeyLines(doc: Document, pos: Pos, lineBase: number, keyLines: Record<string, number>): void {
  if (!isMap(doc.contents)) return;
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key) || !pair.key.range) continue;
    const key = String(pair.key.value);
    if (!(key in keyLines)) keyLines[key] = lineBase + pos(pair.key.range[0]).line;
    if (key === 'metadata' && isMap(pair.value)) {
      for (const p of pair.value.items) {
        if (isScalar(p.key) && p.key.range) keyLines[`metadata.${String(p.key.value)}`] = lineBase + pos(p.key.range[0]).line;
      }
    }
  }
}

/**
 * Every agent we tested accepts `description: Use when: x` although YAML forbids it. Quote such plain
 * values (same line count, so positions stay right) and report each one.
 */
function quoteColonValues(block: string, report: (line: number) => void): string {
  let out: string[] | null = null;
  let from = 0;
  for (let n = 1; from <= block.length; n++) {
    const nl = block.indexOf('\n', from);
    const end = nl === -1 ? block.length : nl;
    const line = block.slice(from, end);
    const fixed = line.indexOf(':') === line.lastIndexOf(':') ? null : quoteLine(line);
    if (fixed !== null) {
      out ??= block
        .slice(0, from)
        .split('\n')
        .slice(0, n - 1);
      report(n);
    }
    if (out) out.push(fixed ?? line);
    if (nl === -1) break;
    from = nl + 1;
  }
  return out ? out.join('\n') : block;
}

function quoteLine(line: string): string | null {
  let i = 0;
  while (line[i] === ' ') i++;
  if (line[i] === '-' && line[i + 1] === ' ') {
    i += 2;
    while (line[i] === ' ') i++;
  }
  const keyStart = i;
  while (i < line.length && isKeyChar(line.charCodeAt(i))) i++;
  if (i === keyStart || line[i] !== ':' || line[i + 1] !== ' ') return null;
  let v = line.slice(i + 2).trim();
  if (!v || '\'"|>[{&*!%@`#'.includes(v[0])) return null;
  const hash = v.indexOf(' #');
  if (hash !== -1) v = v.slice(0, hash).trimEnd();
  if (!v.includes(': ') && !v.endsWith(':')) return null;
  return `${line.slice(0, i)}: ${JSON.stringify(v)}`;
}

function isKeyChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95 || c === 46;
}

/** Plain JSON data: dates become ISO strings, non-finite numbers strings, `__proto__` stays a plain key. */
function jsonSafe(v: unknown, depth: number): unknown {
  if (depth > 64) return null;
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Array.isArray(v)) return v.map((x) => jsonSafe(x, depth + 1));
  if (v instanceof Map) return jsonSafe(Object.fromEntries(v), depth);
  if (v instanceof Set) return [...v].map((x) => jsonSafe(x, depth + 1));
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) {
      Object.defineProperty(out, k, {
        value: jsonSafe((v as Record<string, unknown>)[k], depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return null;
}
