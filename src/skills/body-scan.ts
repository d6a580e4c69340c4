// Scanning a Markdown body for file references and hard-coded home paths. Hand-written scanners
// (indexOf and char loops) instead of regexes, so a hostile body cannot cause backtracking.

import { countNewlines } from './parse.js';

export interface BodyRef {
  /** As written (fragment and query removed, %-escapes decoded). */
  target: string;
  line: number;
  column: number;
  /** `link`: a Markdown link or image; `path`: a path-like word in prose or code. */
  kind: 'link' | 'path';
}

/** Path-like words are references when they start with one of these (the spec's resource dirs). */
const RESOURCE_PREFIXES = ['./', '../', 'scripts/', 'references/', 'assets/'];
const WORD_STOP = new Set([' ', '\t', '`', '"', "'", '(', ')', '[', ']', '<', '>', '{', '}', '|', ',', ';', '=']);
const TRAILING_PUNCT = new Set(['.', ',', ':', ';', '!', '?', ')', ']', "'", '"', '`']);

/**
 * Every reference in `text`, whose first line is `firstLine`. `scanned.newlines` is set to the
 * text's count of `\n` when the scan walked every line (left as it was when nothing could match).
 */
export function findReferences(text: string, firstLine: number, scanned?: { newlines: number }): BodyRef[] {
  const refs: BodyRef[] = [];
  // Every reference holds a slash, a backslash or a Markdown link: most bodies need no line walk.
  if (!text.includes('/') && !text.includes('\\') && !text.includes('](') && !text.includes(']:')) return refs;
  // Lines are scanned in place, by offsets (a slice per line is garbage in every body of a scan),
  // and each marker is searched once through the text, not once per line.
  const next = new NextOf(text);
  if (!text.includes('```') && !text.includes('~~~')) return scanMarkedLines(text, next, firstLine, refs, scanned);
  let fence = '';
  let from = 0;
  for (let line = firstLine; from <= text.length; line++) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    const fenceMark = fenceOf(text, from, end);
    if (fenceMark) {
      if (!fence) fence = fenceMark;
      else if (fenceMark.startsWith(fence[0]) && fenceMark.length >= fence.length) fence = '';
    } else {
      if (!fence) scanLinks(text, next, from, end, line, refs);
      scanWords(text, next, from, end, line, refs);
    }
    if (nl === -1) {
      if (scanned) scanned.newlines = line - firstLine;
      break;
    }
    from = nl + 1;
  }
  return refs;
}

/**
 * `findReferences` for a text where no fence can open (no three backticks or tildes anywhere): only
 * a line holding a marker can hold a reference, so the scan jumps from one such line to the next
 * and counts the newlines in between, instead of looking at every line.
 */
function scanMarkedLines(text: string, next: NextOf, firstLine: number, refs: BodyRef[], scanned?: { newlines: number }): BodyRef[] {
  let line = firstLine;
  let counted = 0; // newlines before this offset are in `line`
  let from = 0;
  for (let at = next.first(from); at !== -1; at = next.first(from)) {
    const start = text.lastIndexOf('\n', at - 1) + 1;
    line += countNewlines(text, counted, start);
    counted = start;
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    scanLinks(text, next, start, end, line, refs);
    scanWords(text, next, start, end, line, refs);
    if (nl === -1) break;
    from = nl + 1;
  }
  if (scanned) scanned.newlines = line - firstLine + countNewlines(text, counted, text.length);
  return refs;
}

const LINK = 0;
const DEFINITION = 1;
const SLASH = 2;
const BACKSLASH = 3;
const MARKERS = ['](', ']:', '/', '\\'];

/**
 * The next `](`, `]:`, `/` or `\\` at or after an offset that only grows: each marker is searched
 * through the text once, never once per line (nor past a line that lacks it, again and again).
 */
class NextOf {
  /** Per marker: its first index at or after the last offset asked, -1 for none left, -2 not searched yet. */
  private readonly at = [-2, -2, -2, -2];
  constructor(private readonly t: string) {}

  /** First index in [from, end) of marker `m`, or -1. `from` never decreases between calls for one marker. */
  find(m: number, from: number, end: number): number {
    let i = this.at[m];
    if (i !== -1 && i < from) {
      i = this.t.indexOf(MARKERS[m], from);
      this.at[m] = i;
    }
    return i !== -1 && i < end ? i : -1;
  }

  /** First index at or after `from` of any marker, or -1 (`from` never decreases, as for `find`). */
  first(from: number): number {
    let best = -1;
    for (let m = 0; m < MARKERS.length; m++) {
      const i = this.find(m, from, this.t.length);
      if (i !== -1 && (best === -1 || i < best)) best = i;
    }
    return best;
  }
}

/** The fence (three or more backticks or tildes after up to three spaces) opening line [from, end), or ''. */
function fenceOf(t: string, from: number, end: number): string {
  let i = from;
  while (i < from + 4 && i < end && t[i] === ' ') i++;
  if (i >= end) return '';
  const c = t[i];
  if (c !== '`' && c !== '~') return '';
  let j = i;
  while (j < end && t[j] === c) j++;
  return j - i >= 3 ? t.slice(i, j) : '';
}

/** Links on line [from, end) of `t`; columns count from the line's start. */
function scanLinks(t: string, next: NextOf, from: number, end: number, line: number, refs: BodyRef[]): void {
  // Inline links and images: `](target)` or `](<target>)`.
  for (let i = next.find(LINK, from, end); i !== -1; i = next.find(LINK, i + 2, end)) {
    const j = i + 2;
    let target: string;
    if (j < end && t[j] === '<') {
      const close = t.indexOf('>', j);
      if (close === -1 || close >= end) continue;
      target = t.slice(j + 1, close);
    } else {
      let k = j;
      while (k < end && t[k] !== ')' && t[k] !== ' ' && t[k] !== '\t') k++;
      target = t.slice(j, k);
    }
    pushLink(target, line, j - from + 1, refs);
  }
  // Reference definitions: `[label]: target`.
  let i = from;
  while (i < from + 4 && i < end && t[i] === ' ') i++;
  if (i < end && t[i] === '[') {
    const close = next.find(DEFINITION, i, end);
    if (close !== -1) {
      let j = close + 2;
      while (j < end && (t[j] === ' ' || t[j] === '\t')) j++;
      let k = j;
      while (k < end && t[k] !== ' ' && t[k] !== '\t') k++;
      const w = t.slice(j, k);
      pushLink(w.startsWith('<') && w.endsWith('>') ? w.slice(1, -1) : w, line, j - from + 1, refs);
    }
  }
}

function pushLink(raw: string, line: number, column: number, refs: BodyRef[]): void {
  let t = raw.trim();
  if (!t || t[0] === '#' || hasScheme(t)) return;
  const cut = firstOf(t, '#', '?');
  if (cut !== -1) t = t.slice(0, cut);
  if (!t) return;
  try {
    t = decodeURIComponent(t);
  } catch {
    /* keep as written */
  }
  refs.push({ target: t, line, column, kind: 'link' });
}

/** `https:`, `mailto:` ... but not a Windows drive (`C:\`, `C:/`). */
function hasScheme(t: string): boolean {
  const colon = t.indexOf(':');
  if (colon < 1) return false;
  if (colon === 1 && (t[2] === '\\' || t[2] === '/')) return false;
  for (let i = 0; i < colon; i++) {
    const c = t.charCodeAt(i);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (i > 0 && ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46));
    if (!ok) return false;
  }
  return true;
}

function firstOf(s: string, a: string, b: string): number {
  const x = s.indexOf(a);
  const y = s.indexOf(b);
  return x === -1 ? y : y === -1 ? x : Math.min(x, y);
}

/** Path-like words on line [from, end): `scripts/x.py`, `./a.md`, `../b`, `scripts\\x.py`, `/abs/.../skills/...`. */
function scanWords(t: string, next: NextOf, from: number, end: number, line: number, refs: BodyRef[]): void {
  // Every candidate holds a slash or backslash: look around those instead of at every word.
  let slash = next.find(SLASH, from, end);
  let back = next.find(BACKSLASH, from, end);
  while (slash !== -1 || back !== -1) {
    const i = slash === -1 ? back : back === -1 ? slash : Math.min(slash, back);
    let start = i;
    while (start > from && !WORD_STOP.has(t[start - 1])) start--;
    let stop = i;
    while (stop < end && !WORD_STOP.has(t[stop])) stop++;
    pathWord(t.slice(start, stop), line, start - from + 1, refs);
    if (slash !== -1 && slash < stop) slash = next.find(SLASH, stop, end);
    if (back !== -1 && back < stop) back = next.find(BACKSLASH, stop, end);
  }
}

function pathWord(word: string, line: number, column: number, refs: BodyRef[]): void {
  const hash = word.indexOf('#');
  let w = hash === -1 ? word : word.slice(0, hash); // `references/api.md#auth` names references/api.md
  while (w.length && TRAILING_PUNCT.has(w[w.length - 1])) w = w.slice(0, -1);
  if (w.length < 3 || w.includes('://') || w.includes('...')) return;
  if (w.includes('*') || w.includes('$') || w.includes('%')) return; // globs and placeholders
  const c = w[0];
  if (c === '.' || c === 's' || c === 'r' || c === 'a') {
    for (const p of RESOURCE_PREFIXES) {
      if (w.startsWith(p) || w.startsWith(p.replace('/', '\\'))) {
        refs.push({ target: w, line, column, kind: 'path' });
        return;
      }
    }
  } else if (c === '/' && w.includes('/skills/')) {
    refs.push({ target: w, line, column, kind: 'path' });
  }
}

export interface HomePath {
  /** Normalised `~/x/...` form. */
  path: string;
  line: number;
  column: number;
}

const HOME_PREFIXES = ['~/', '$HOME/', '${HOME}/'];
const BEFORE_TILDE = new Set([' ', '\t', '"', "'", '`', '(', '[', '=', ':', ',', ';', '|', '>', '<', '{']);

/** Every `~/x`, `$HOME/x`, `${HOME}/x` in the text, normalised to `~/x` (`~/x/` for a directory). */
export function findHomePaths(text: string, firstLine: number): HomePath[] {
  const out: HomePath[] = [];
  let from = 0;
  for (let line = firstLine; from <= text.length; line++) {
    const nl = text.indexOf('\n', from);
    const end = nl === -1 ? text.length : nl;
    const s = text.slice(from, end);
    if (s.includes('/')) scanHomeLine(s, line, out);
    if (nl === -1) break;
    from = nl + 1;
  }
  return out;
}

function scanHomeLine(s: string, line: number, out: HomePath[]): void {
  for (const prefix of HOME_PREFIXES) {
    for (let i = s.indexOf(prefix); i !== -1; i = s.indexOf(prefix, i + 1)) {
      if (prefix === '~/' && i > 0 && !BEFORE_TILDE.has(s[i - 1])) continue;
      if (prefix === '$HOME/' && i > 0 && s[i - 1] === '$') continue;
      let j = i + prefix.length;
      while (j < s.length && isPathChar(s.charCodeAt(j))) j++;
      let rest = s.slice(i + prefix.length, j);
      while (rest.length && (rest.endsWith('.') || rest.endsWith(','))) rest = rest.slice(0, -1);
      if (!rest || rest === '/' || rest.startsWith('/')) continue;
      const before = s.slice(0, i).trimEnd();
      if (!rest.endsWith('/') && (before.endsWith('mkdir -p') || before.endsWith('mkdir'))) rest += '/';
      out.push({ path: `~/${rest}`, line, column: i + 1 });
    }
  }
}

function isPathChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 46 ||
    c === 95 ||
    c === 45 ||
    c === 47 ||
    c === 43 ||
    c === 64
  );
}
