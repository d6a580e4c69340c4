import type { ScanFinding, ScanLevel } from '../contract/index.js';
import type { MdLine } from './markdown.js';

// Text an agent reads but a person reviewing the rendered skill does not see: HTML comments,
// Markdown comment tricks, hidden HTML, invisible Unicode (zero-width, bidi controls, tag characters).

const CODE = 'scan-hidden-instructions' as const;
const SEVERITY = { high: 'error', medium: 'warning', low: 'info' } as const;

function finding(level: ScanLevel, file: string, line: number, column: number | undefined, message: string, fix: string): ScanFinding {
  const f: ScanFinding = { code: CODE, severity: SEVERITY[level], level, message, file, line, fix };
  if (column) f.column = column;
  return f;
}

// Tooling pragmas that ordinary Markdown carries in comments.
const PRAGMA = /^(?:markdownlint|prettier|eslint|textlint|cspell|vale|spell|toc|end ?toc|omit in toc|lint|@\w|#(?:end)?region|begin|end|start|stop|all-contributors|auto-?generated|generated|mdformat|remark|doctoc|START doctoc|END doctoc)\b/i;

const HIGH_DIRECT = new RegExp([
  String.raw`\b(?:ignore|disregard|forget|override)\b[^.\n]{0,40}\b(?:previous|prior|above|earlier|all|other|user'?s?|system|safety)\b`,
  String.raw`\b(?:do not|don'?t|never|without)\s+(?:tell|telling|mention|mentioning|reveal|revealing|inform|informing|show|showing|asking|ask|notify|notifying|let the user)\b`,
  String.raw`\bsecretly\b|\bcovertly\b|\b(?:silently|quietly)\s+(?:run|send|upload|execute|install|add|copy|read|include|delete|remove|modify|change|write|fetch|download)\b`,
  String.raw`\bsystem prompt\b|\byou are now\b|\bnew instructions?\b|\bexfiltrat`,
  String.raw`\b(?:curl|wget)\s+\S*(?:https?:|\$|-)|\|\s*(?:ba|z)?sh\b|\brm\s+-[a-z]*r`,
].join('|'), 'i');
const SECRET = /\b(?:api[_ -]?keys?|passwords?|tokens?|credentials?|secrets?|private keys?|\.ssh|\.aws|\.env|cookies?|env(?:ironment)? var(?:iable)?s?)\b/i;
const ACTION = /\b(?:send|sends|upload|post|include|print|output|copy|collect|read|cat|reveal|leak|append|attach|forward|email)\b/i;
const DIRECTED = /\b(?:you|your|assistant|agent|claude|gemini|codex|model|ai|llm|always|never|must|should|instead|run|execute|install|download|read|write|delete|call|invoke|fetch|send)\b/i;

/** How dangerous a piece of hidden text is, or null when it is ordinary (a pragma, a note). */
export function classifyHidden(text: string): ScanLevel | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t) return null;
  if (HIGH_DIRECT.test(t) || (SECRET.test(t) && ACTION.test(t))) return 'high';
  if (PRAGMA.test(t)) return null;
  const words = t.split(' ').length;
  if (words >= 4 && DIRECTED.test(t)) return 'medium';
  return null;
}

function excerpt(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
}

/** HTML comments, `[//]: # (...)` comments and hidden HTML elements in the prose of a Markdown file. */
export function hiddenMarkdown(lines: MdLine[], file: string): ScanFinding[] {
  const out: ScanFinding[] = [];
  const prose = lines.filter((l) => l.kind === 'prose');
  const joined = prose.map((l) => l.text).join('\n');
  const starts: number[] = [];
  let offset = 0;
  for (const l of prose) {
    starts.push(offset);
    offset += l.text.length + 1;
  }
  const lineAt = (index: number): number => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return prose[lo]?.line ?? 1;
  };
  const report = (text: string, index: number, what: string) => {
    const level = classifyHidden(text);
    if (!level) return;
    const line = lineAt(index);
    const column = index - starts[prose.findIndex((l) => l.line === line)] + 1;
    out.push(finding(level, file, line, column,
      `${what} holds instructions a reader of the rendered skill does not see: "${excerpt(text)}"`,
      'Put instructions in visible text, or remove them.'));
  };
  for (const m of joined.matchAll(/<!--([\s\S]*?)(?:-->|$(?![\s\S]))/g)) report(m[1], m.index ?? 0, 'An HTML comment');
  for (const m of joined.matchAll(/^ {0,3}\[(?:\/\/|comment|_|#)\]:\s*(?:#|<>)\s*(?:\(([^\n]*)\)|"([^\n]*)"|'([^\n]*)')\s*$/gim))
    report(m[1] ?? m[2] ?? m[3] ?? '', m.index ?? 0, 'A Markdown comment');
  const hiddenTag = /<(\w+)\b[^>]*?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px)?\b|opacity\s*:\s*0(?:\.0+)?\s*[;"']|\shidden(?=[\s>=/]))[^>]*>([\s\S]*?)(?:<\/\1\s*>|$(?![\s\S]))/gi;
  for (const m of joined.matchAll(hiddenTag)) report(m[2].replace(/<[^>]+>/g, ' '), m.index ?? 0, 'A hidden HTML element');
  return out;
}

const TAGS = /[\u{E0000}-\u{E007F}]+/gu;
const BIDI = /[\u202A-\u202E\u2066-\u2069]/g;
const ZERO_WIDTH = /[\u200B\u200C\u200D\u2060\u180E\uFEFF]+/g;

function isAsciiOrEdge(ch: string | undefined): boolean {
  return ch === undefined || /^[\x20-\x7E\t]$/.test(ch);
}

/**
 * Invisible characters in any text file. Zero-width joiners next to emoji or in scripts that need
 * them (Persian, Indic) are ordinary; between ASCII characters, or in runs, they hide something.
 */
export function invisibleCharacters(text: string, file: string, kind: 'markdown' | 'script'): ScanFinding[] {
  const out: ScanFinding[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const n = i + 1;
    for (const m of line.matchAll(TAGS)) {
      const decoded = [...m[0]].map((c) => String.fromCharCode((c.codePointAt(0) ?? 0) - 0xe0000)).join('').replace(/[^\x20-\x7e]/g, '');
      out.push(finding('high', file, n, (m.index ?? 0) + 1,
        `Invisible Unicode tag characters spell out hidden text${decoded.trim() ? `: "${excerpt(decoded)}"` : ''}.`,
        'Remove the invisible characters.'));
    }
    const bidi = BIDI.exec(line);
    BIDI.lastIndex = 0;
    if (bidi) {
      out.push(finding(kind === 'script' ? 'high' : 'medium', file, n, bidi.index + 1,
        'A bidirectional control character reorders how this line is displayed, so what runs is not what a reviewer reads.',
        'Remove the bidi control characters (U+202A-U+202E, U+2066-U+2069).'));
    }
    for (const m of line.matchAll(ZERO_WIDTH)) {
      const run = [...m[0]].length;
      const at = m.index ?? 0;
      const before = line[at - 1];
      const after = line[at + m[0].length];
      if (run < 3 && !(isAsciiOrEdge(before) && isAsciiOrEdge(after))) continue;
      if (run < 3 && before === undefined && after === undefined) continue;
      const level: ScanLevel = run >= 3 || kind === 'script' ? 'high' : 'medium';
      out.push(finding(level, file, n, at + 1,
        run >= 3
          ? `${run} zero-width characters in a row: invisible text can encode hidden instructions.`
          : 'A zero-width character inside plain text makes words or commands look different from what the agent reads.',
        'Remove the zero-width characters.'));
      break;
    }
  });
  return out;
}
