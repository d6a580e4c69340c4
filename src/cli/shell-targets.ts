// Paths a shell command line would create or write, read without running anything: the targets of
// `>`/`>>` redirections and of the commands that make files (mkdir, touch, tee, cp, mv, install, ln,
// dd of=). Only absolute and home paths (`~`, `$HOME`) are returned: a relative path lands in the
// agent's working folder, which the write guard lets it use anyway. Good enough for the guard's
// purpose (a skill's legacy state path, SkillDock's own files); not a shell parser.

const MAKERS = new Set(['mkdir', 'touch', 'tee']);
const LAST_IS_TARGET = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);

/** Split on whitespace and shell separators, keeping quoted words whole (quotes removed). */
function words(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  let has = false;
  const flush = () => {
    if (has) out.push(cur);
    cur = '';
    has = false;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) flush();
    else if (ch === ';' || ch === '|' || ch === '&' || ch === '(' || ch === ')') {
      flush();
      out.push(ch);
    } else if (ch === '>') {
      flush();
      if (line[i + 1] === '>') i++;
      out.push('>');
    } else {
      cur += ch;
      has = true;
    }
  }
  flush();
  return out;
}

function homeOrAbsolute(p: string): boolean {
  return p.startsWith('/') || p === '~' || p.startsWith('~/') || p.startsWith('$HOME') || p.startsWith('${HOME}');
}

/** `$HOME` and `${HOME}` written as `~`. */
export function homeAsTilde(p: string): string {
  return p.replace(/^(\$\{HOME\}|\$HOME)(?=\/|$)/, '~');
}

export function shellWriteTargets(line: string): string[] {
  const out: string[] = [];
  const tokens = words(line);
  let command: string[] = [];
  const finish = () => {
    const [name, ...args] = command;
    command = [];
    if (!name) return;
    const base = name.split('/').pop()!;
    const operands = args.filter((a) => !a.startsWith('-'));
    if (MAKERS.has(base)) out.push(...operands);
    else if (LAST_IS_TARGET.has(base) && operands.length >= 2) out.push(operands[operands.length - 1]!);
    else if (base === 'dd') out.push(...args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)));
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t === '>') {
      const target = tokens[i + 1];
      if (target && !['>', ';', '|', '&'].includes(target)) out.push(target);
      i++;
    } else if (t === ';' || t === '|' || t === '&' || t === '(' || t === ')') finish();
    else if (t !== 'sudo' || command.length) command.push(t);
  }
  finish();
  return [...new Set(out.filter(homeOrAbsolute))];
}
