import { describe, expect, it } from 'vitest';
import { leftmost, ordered, type Find } from './ordered.js';

// The ordered search must answer what the regular expression it replaces answers: the same
// leftmost position, or none. Checked against V8 on many short random lines over a small alphabet
// (so that leads, tails, stops and near misses meet often), where the expression is still fast.

function randomLines(seed: number, alphabet: string[], count: number, maxWords: number): string[] {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  const out: string[] = [];
  for (let n = 0; n < count; n++) {
    let line = '';
    const words = 1 + Math.floor(next() * maxWords);
    for (let w = 0; w < words; w++) line += alphabet[Math.floor(next() * alphabet.length)];
    out.push(line);
  }
  return out;
}

function expectSame(find: Find, re: RegExp, lines: string[]): void {
  let hits = 0;
  for (const l of lines) {
    const want = re.exec(l)?.index ?? -1;
    if (want >= 0) hits++;
    expect(find(l), JSON.stringify(l)).toBe(want);
  }
  // The alphabet must make both answers common, or the comparison proves little.
  expect(hits).toBeGreaterThan(lines.length / 50);
  expect(hits).toBeLessThan(lines.length * 0.9);
}

describe('ordered search answers as the expression does', () => {
  const words = ['curl ', 'cu', 'rl', '|', '| sh', '|sh', 'sh', ' ', '\n', 'x', 'curl|sh', '>>', '>', 'ok'];
  const lines = randomLines(1, words, 4000, 9);

  it('lead, any gap without a newline, tail', () => {
    expectSame(ordered('\n', /\bcurl\b/, /\|\s*sh\b/), /\bcurl\b[^\n]*\|\s*sh\b/, lines);
  });

  it('a gap that stops at a pipe, the tail at that pipe', () => {
    expectSame(ordered('\n|', /\bcurl\b/, /\|\s*sh\b/), /\bcurl\b[^\n|]*\|\s*sh\b/, lines);
  });

  it('three parts, two gaps', () => {
    expectSame(ordered('\n', />>?/, /\bcurl\b/, /\bsh\b/), />>?[^\n]*\bcurl\b[^\n]*\bsh\b/, lines);
  });

  it('a gap ended by an expression: options before a file', () => {
    const opts = ['cat ', '-n ', '-', '.env', 'x/.env', ' ', 'cat', '-x/.env ', 'y ', '"', '\n'];
    expectSame(
      ordered(/(?<=\s)(?=\S|$)(?!-\S+\s)/, /\bcat\s+/, /(?<=\s)["']?(?:[\w./~-]*\/)?\.env["']?(?=\s|$)/),
      /\bcat\s+(?:-\S+\s+)*["']?(?:[\w./~-]*\/)?\.env["']?(?=\s|$)/,
      randomLines(2, opts, 4000, 8),
    );
  });

  it('the leftmost of several, as an alternation', () => {
    expectSame(
      leftmost(ordered('\n', /\bcurl\b/, /\|\s*sh\b/), />>/, ordered('\n', /ok/, /x/)),
      /\bcurl\b[^\n]*\|\s*sh\b|>>|ok[^\n]*x/,
      lines,
    );
  });
});
