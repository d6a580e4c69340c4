// Line structure of a Markdown document, as far as the security scan needs it: which lines are
// prose and which sit in a fenced code block (and in which language), and the inline code spans.

export interface MdLine {
  /** 1-based line in the file. */
  line: number;
  text: string;
  kind: 'prose' | 'fence-delimiter' | 'code';
  /** Info string of the enclosing fence, lower case (`bash`, `python`, `` when none). */
  lang?: string;
  /** Index of the fenced block, for grouping its lines. */
  block?: number;
}

/** Fence languages whose lines are commands for a shell. */
export const SHELL_LANGS = new Set([
  'bash',
  'sh',
  'shell',
  'zsh',
  'fish',
  'ksh',
  'console',
  'terminal',
  'shell-session',
  'sh-session',
  'shellsession',
  'powershell',
  'ps',
  'ps1',
  'pwsh',
  'cmd',
  'bat',
  'batch',
  'bash-session',
]);
/** Shell languages that mix commands (`$ ` lines) with their output. */
export const SESSION_LANGS = new Set(['console', 'terminal', 'shell-session', 'sh-session', 'shellsession', 'bash-session']);

export function markdownLines(text: string, firstLine = 1): MdLine[] {
  const out: MdLine[] = [];
  let fence: { char: string; len: number; lang: string; block: number } | null = null;
  let blocks = 0;
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = firstLine + i;
    const m = /^ {0,3}(`{3,}|~{3,})\s*([^\s`{]*)?/.exec(raw);
    if (!fence) {
      if (m) {
        fence = { char: m[1][0], len: m[1].length, lang: (m[2] ?? '').toLowerCase().replace(/^\{?\.?/, ''), block: blocks++ };
        out.push({ line, text: raw, kind: 'fence-delimiter', lang: fence.lang, block: fence.block });
      } else {
        out.push({ line, text: raw, kind: 'prose' });
      }
      return;
    }
    const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(raw);
    if (close && close[1][0] === fence.char && close[1].length >= fence.len) {
      out.push({ line, text: raw, kind: 'fence-delimiter', lang: fence.lang, block: fence.block });
      fence = null;
      return;
    }
    out.push({ line, text: raw, kind: 'code', lang: fence.lang, block: fence.block });
  });
  return out;
}

/** Inline code spans of one prose line (`like this`), with their column (1-based). */
export function inlineCode(text: string): Array<{ code: string; column: number }> {
  const spans: Array<{ code: string; column: number }> = [];
  const re = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) spans.push({ code: m[2].trim(), column: m.index + m[1].length + 1 });
  return spans;
}

/** Logical command lines of a shell block: continuation lines joined, comments and blanks dropped. */
export function shellCommands(lines: MdLine[], lang: string): Array<{ text: string; line: number }> {
  const out: Array<{ text: string; line: number }> = [];
  const session = SESSION_LANGS.has(lang);
  const ps = lang === 'powershell' || lang === 'ps1' || lang === 'pwsh' || lang === 'ps';
  let pending: { text: string; line: number } | null = null;
  for (const l of lines) {
    let t = l.text.trim();
    if (pending) {
      pending.text += ' ' + t.replace(/\\$|`$/, '').trim();
      if (!/(\\|`|\|)$/.test(t)) {
        out.push(pending);
        pending = null;
      }
      continue;
    }
    if (!t) continue;
    const prompt = /^(\$|>|PS [^>]*>|PS>|%|#)\s+/.exec(t);
    if (session) {
      if (!prompt || prompt[1] === '#' || prompt[1] === '>') continue; // output, not a command
      t = t.slice(prompt[0].length);
    } else if (prompt && prompt[1] !== '#') {
      t = t.slice(prompt[0].length);
    }
    if (/^#/.test(t) || (!ps && /^(rem|::)\s/i.test(t))) continue;
    const cont = /(\\|\|)$/.test(t) || (ps && /`$/.test(t));
    const clean = t.replace(/\\$|`$/, '').trim();
    if (cont) pending = { text: clean, line: l.line };
    else out.push({ text: clean, line: l.line });
  }
  if (pending) out.push(pending);
  return out;
}
