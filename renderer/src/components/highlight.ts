// A small syntax highlighter for reading skill files: comments, strings, keywords, numbers and
// variables in the languages skills ship (shell, Python, JavaScript/TypeScript, PowerShell, Ruby,
// YAML, JSON, Markdown). It only colours text; it never evaluates anything. Written for this app
// rather than pulling a highlighting library into the bundle: it is loaded with the file viewer.

export type TokenKind = 'plain' | 'comment' | 'string' | 'keyword' | 'number' | 'variable' | 'key' | 'heading' | 'meta';
export interface Token {
  kind: TokenKind;
  text: string;
}
export type Language = 'shell' | 'python' | 'js' | 'powershell' | 'ruby' | 'yaml' | 'json' | 'markdown' | 'plain';

interface Block {
  open: RegExp;
  close: RegExp;
  kind: TokenKind;
}
interface Grammar {
  /** Tried in order at each position (sticky regexes). */
  rules: Array<[RegExp, TokenKind]>;
  /** Constructs that may span lines (block comments, triple-quoted strings). */
  blocks?: Block[];
  keywords?: ReadonlySet<string>;
  /** Keywords compare lower-cased (PowerShell). */
  caseless?: boolean;
}

const words = (s: string) => new Set(s.split(' '));
const NUMBER: [RegExp, TokenKind] = [/\b(?:0x[\da-fA-F]+|\d+(?:\.\d+)?(?:e[+-]?\d+)?)\b/y, 'number'];
const DQ: [RegExp, TokenKind] = [/"(?:[^"\\]|\\.)*"?/y, 'string'];
const SQ: [RegExp, TokenKind] = [/'(?:[^'\\]|\\.)*'?/y, 'string'];

const GRAMMARS: Record<Exclude<Language, 'plain'>, Grammar> = {
  shell: {
    rules: [
      [/#!.*/y, 'meta'],
      [/(?<![\w$])#.*/y, 'comment'],
      DQ,
      [/'[^']*'?/y, 'string'],
      [/\$(?:\{[^}]*\}?|\w+|[@*#?$!-])/y, 'variable'],
      NUMBER,
    ],
    keywords: words(
      'if then else elif fi for while until do done case esac in function return local export readonly declare set unset shift exit source eval exec trap break continue select time',
    ),
  },
  python: {
    rules: [[/#.*/y, 'comment'], [/[rbfuRBFU]{0,2}(?:"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?)/y, 'string'], [/@[\w.]+/y, 'meta'], NUMBER],
    blocks: [
      { open: /[rbfuRBFU]{0,2}"""/y, close: /"""/g, kind: 'string' },
      { open: /[rbfuRBFU]{0,2}'''/y, close: /'''/g, kind: 'string' },
    ],
    keywords: words(
      'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield self print',
    ),
  },
  js: {
    rules: [[/\/\/.*/y, 'comment'], DQ, SQ, [/`(?:[^`\\]|\\.)*`?/y, 'string'], NUMBER],
    blocks: [{ open: /\/\*/y, close: /\*\//g, kind: 'comment' }],
    keywords: words(
      'async await break case catch class const continue debugger default delete do else export extends false finally for from function if import in instanceof interface let new null of return static super switch this throw true try type typeof undefined var void while with yield',
    ),
  },
  powershell: {
    rules: [[/#.*/y, 'comment'], DQ, [/'[^']*'?/y, 'string'], [/\$[\w:]+/y, 'variable'], [/-[A-Za-z]+\b/y, 'meta'], NUMBER],
    blocks: [{ open: /<#/y, close: /#>/g, kind: 'comment' }],
    keywords: words(
      'begin break catch class continue data do dynamicparam else elseif end exit filter finally for foreach from function if in param process return switch throw trap try until while',
    ),
    caseless: true,
  },
  ruby: {
    rules: [[/#.*/y, 'comment'], DQ, SQ, [/[@$][\w]+/y, 'variable'], [/:\w+/y, 'meta'], NUMBER],
    keywords: words(
      'begin def do else elsif end ensure false for if in module next nil not or and raise require rescue return self then true unless until when while yield class',
    ),
  },
  yaml: {
    rules: [
      [/#.*/y, 'comment'],
      [/(?:- )?[\w.-]+(?=\s*:(?:\s|$))/y, 'key'],
      DQ,
      SQ,
      [/\b(?:true|false|null|yes|no)\b/y, 'keyword'],
      NUMBER,
      [/^---$/y, 'meta'],
    ],
  },
  json: {
    rules: [
      [/"(?:[^"\\]|\\.)*"(?=\s*:)/y, 'key'],
      DQ,
      [/\b(?:true|false|null)\b/y, 'keyword'],
      [/-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y, 'number'],
    ],
  },
  markdown: {
    rules: [
      [/^#{1,6} .*/y, 'heading'],
      [/^(?:```|~~~).*/y, 'meta'],
      [/`[^`]*`/y, 'string'],
      [/\[[^\]]*\]\([^)]*\)/y, 'key'],
      [/(?:\*\*|__)[^*_]+(?:\*\*|__)/y, 'keyword'],
    ],
    blocks: [{ open: /<!--/y, close: /-->/g, kind: 'comment' }],
  },
};

const EXT: Record<string, Language> = {
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  ksh: 'shell',
  fish: 'shell',
  py: 'python',
  pyw: 'python',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  jsx: 'js',
  ts: 'js',
  mts: 'js',
  cts: 'js',
  tsx: 'js',
  ps1: 'powershell',
  psm1: 'powershell',
  rb: 'ruby',
  yml: 'yaml',
  yaml: 'yaml',
  json: 'json',
  md: 'markdown',
  markdown: 'markdown',
};

/** The language of a file by its extension, else by its `#!` line. */
export function languageOf(filePath: string, text: string): Language {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filePath)?.[1]?.toLowerCase();
  if (ext && EXT[ext]) return EXT[ext];
  const bang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(text);
  if (bang) {
    const prog = (bang[1].endsWith('/env') ? (bang[2] ?? '') : bang[1]).split('/').pop() ?? '';
    if (/^(?:ba|z|k|da)?sh$/.test(prog)) return 'shell';
    if (/^python/.test(prog)) return 'python';
    if (/^(?:node|deno|bun)$/.test(prog)) return 'js';
    if (/^ruby$/.test(prog)) return 'ruby';
    if (/^pwsh$/.test(prog)) return 'powershell';
  }
  return 'plain';
}

const WORD = /[A-Za-z_][\w-]*/y;
const SPACE = /\s+/y;

/** Tokens per line. An open block (comment, triple-quoted string) carries over to the next lines. */
export function highlight(text: string, language: Language): Token[][] {
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start an empty one.
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  if (language === 'plain') return lines.map((l) => (l ? [{ kind: 'plain', text: l }] : []));
  const g = GRAMMARS[language];
  let open: Block | null = null;
  return lines.map((line) => {
    const out: Token[] = [];
    const push = (kind: TokenKind, s: string) => {
      if (!s) return;
      const last = out[out.length - 1];
      if (last && last.kind === kind) last.text += s;
      else out.push({ kind, text: s });
    };
    let i = 0;
    while (i < line.length) {
      if (open) {
        open.close.lastIndex = i;
        const m = open.close.exec(line);
        const end = m ? m.index + m[0].length : line.length;
        push(open.kind, line.slice(i, end));
        i = end;
        if (m) open = null;
        continue;
      }
      const block = g.blocks?.find((b) => ((b.open.lastIndex = i), b.open.test(line)));
      if (block) {
        const start = i;
        i = block.open.lastIndex;
        push(block.kind, line.slice(start, i));
        open = block;
        continue;
      }
      let matched = false;
      for (const [re, kind] of g.rules) {
        // `^` rules match only at the start of the line.
        if (re.source.startsWith('^') && i !== 0) continue;
        re.lastIndex = i;
        const m = re.exec(line);
        if (m && m[0].length > 0) {
          push(kind, m[0]);
          i += m[0].length;
          matched = true;
          break;
        }
      }
      if (matched) continue;
      SPACE.lastIndex = i;
      const sp = SPACE.exec(line);
      if (sp) {
        push('plain', sp[0]);
        i += sp[0].length;
        continue;
      }
      WORD.lastIndex = i;
      const w = WORD.exec(line);
      if (w) {
        const key = g.caseless ? w[0].toLowerCase() : w[0];
        push(g.keywords?.has(key) ? 'keyword' : 'plain', w[0]);
        i += w[0].length;
        continue;
      }
      push('plain', line[i]);
      i++;
    }
    return out;
  });
}
