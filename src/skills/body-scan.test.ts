import { describe, expect, it } from 'vitest';
import { findReferences } from './body-scan.js';

// The scanner walks lines by offsets into the whole text: lines, columns and line ends must come
// out as they would for each line on its own.

const at = (text: string, first = 1) => findReferences(text, first).map((r) => `${r.kind}:${r.target}@${r.line}:${r.column}`);

describe('findReferences', () => {
  it('gives each reference its own line and a column counted from that line', () => {
    const text = ['intro', 'see [a](references/a.md) and scripts/run.sh', '  [def]: ./b.md', 'scripts\\w.py y'].join('\n');
    expect(at(text, 10)).toEqual([
      'link:references/a.md@11:9',
      'path:references/a.md@11:9',
      'path:scripts/run.sh@11:30',
      'link:./b.md@12:10',
      'path:./b.md@12:10',
      'path:scripts\\w.py@13:1',
    ]);
  });

  it('never matches across a line end', () => {
    // `]` ends one line, `(` opens the next; `[x]` then `:` on the next line is no definition.
    expect(at('[a]\n(references/a.md)\n[x]\n: ./b.md')).toEqual(['path:references/a.md@2:2', 'path:./b.md@4:3']);
    expect(at('](\n<references/a.md')).toEqual(['path:references/a.md@2:2']);
    expect(at('[a](<references/a.md\n>)')).toEqual(['path:references/a.md@1:6']);
  });

  it('skips links inside fences but still finds path words there', () => {
    const text = '```sh\n[a](references/x.md) scripts/in.sh\n```\n[b](references/y.md)';
    expect(at(text)).toEqual([
      'path:references/x.md@2:5',
      'path:scripts/in.sh@2:22',
      'link:references/y.md@4:5',
      'path:references/y.md@4:5',
    ]);
  });

  it('finds a marker again after lines without it (each marker searched once)', () => {
    const lines = Array.from({ length: 50 }, (_, i) => (i % 10 === 9 ? `[l${i}](scripts/s${i}.sh)` : `plain ${i}`));
    const refs = findReferences(lines.join('\n'), 1).filter((r) => r.kind === 'link');
    expect(refs.map((r) => `${r.target}@${r.line}`)).toEqual([10, 20, 30, 40, 50].map((l) => `scripts/s${l - 1}.sh@${l}`));
  });

  it('finds the same without fences when it jumps to the lines holding a marker', () => {
    // A fence line at the very end opens a fence that covers nothing: the text is then walked line
    // by line, and must give what the jump over marker-free lines gives without it.
    const pieces = [
      'plain words',
      '',
      '  [d]: ./defs.md',
      'see [a](references/a.md) and scripts/x.sh',
      'a\\b',
      'x](y',
      '/abs/skills/z',
      '~~',
      '``',
    ];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    for (let k = 0; k < 300; k++) {
      const lines = Array.from({ length: 1 + rand(12) }, () => pieces[rand(pieces.length)]);
      const text = lines.join('\n') + (rand(2) ? '\n' : '');
      const jumped = { newlines: -1 };
      const walked = { newlines: -1 };
      const a = findReferences(text, 3, jumped);
      const b = findReferences(`${text}\n\`\`\``, 3, walked);
      expect(a, JSON.stringify(text)).toEqual(b);
      expect(jumped.newlines === -1 ? -1 : jumped.newlines + 1, JSON.stringify(text)).toBe(walked.newlines);
    }
  });

  it('counts the newlines of the text it walked', () => {
    const scanned = { newlines: -1 };
    findReferences('a/b\n\nc\n', 1, scanned);
    expect(scanned.newlines).toBe(3);
    const none = { newlines: -1 };
    findReferences('no markers\nhere', 1, none);
    expect(none.newlines).toBe(-1); // nothing could match: no walk, no count
  });
});
