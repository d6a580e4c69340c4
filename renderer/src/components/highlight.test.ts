import { describe, expect, it } from 'vitest';
import { highlight, languageOf, type Token } from './highlight';
import { withinFloor } from '../../../test/support/speed.js';

const kinds = (line: Token[]) => line.filter((t) => t.kind !== 'plain').map((t) => [t.kind, t.text]);

describe('highlight', () => {
  it('picks the language by extension, else by the #! line', () => {
    expect(languageOf('scripts/install.sh', '')).toBe('shell');
    expect(languageOf('scripts/tool', '#!/usr/bin/env python3\nprint(1)')).toBe('python');
    expect(languageOf('bin/run', '#!/bin/bash\n')).toBe('shell');
    expect(languageOf('x.mjs', '')).toBe('js');
    expect(languageOf('SKILL.md', '')).toBe('markdown');
    expect(languageOf('notes.txt', 'hello')).toBe('plain');
  });

  it('shell: shebang, comments, strings, variables and keywords; a # inside a word is not a comment', () => {
    const [bang, comment, cmd, cond] = highlight(
      '#!/bin/sh\n# install it\ncurl -fsSL "$URL/x.sh" | sh # pipe\nif [ -n "${A#b}" ]; then echo a#b; fi',
      'shell',
    );
    expect(kinds(bang)).toEqual([['meta', '#!/bin/sh']]);
    expect(kinds(comment)).toEqual([['comment', '# install it']]);
    expect(kinds(cmd)).toEqual([
      ['string', '"$URL/x.sh"'],
      ['comment', '# pipe'],
    ]);
    expect(kinds(cond)).toEqual([
      ['keyword', 'if'],
      ['string', '"${A#b}"'],
      ['keyword', 'then'],
      ['keyword', 'fi'],
    ]);
    // Every character survives, in order: the viewer shows exactly the file.
    expect(cond.map((t) => t.text).join('')).toBe('if [ -n "${A#b}" ]; then echo a#b; fi');
  });

  it('python: a triple-quoted string spans lines; js: a block comment spans lines', () => {
    const py = highlight('def f():\n    """Doc\n    more"""\n    return 1', 'python');
    expect(kinds(py[0])).toEqual([['keyword', 'def']]);
    expect(kinds(py[1])).toEqual([['string', '"""Doc']]);
    expect(kinds(py[2])).toEqual([['string', '    more"""']]);
    expect(kinds(py[3])).toEqual([
      ['keyword', 'return'],
      ['number', '1'],
    ]);
    const js = highlight('/* a\n b */ const x = `t`;', 'js');
    expect(kinds(js[1])).toEqual([
      ['comment', ' b */'],
      ['keyword', 'const'],
      ['string', '`t`'],
    ]);
  });

  it('yaml keys and markdown headings; plain text is left alone', () => {
    expect(kinds(highlight('name: pdf # the id', 'yaml')[0])).toEqual([
      ['key', 'name'],
      ['comment', '# the id'],
    ]);
    expect(kinds(highlight('# Title\nsee `x.sh`', 'markdown')[1])).toEqual([['string', '`x.sh`']]);
    expect(highlight('a\n\nb', 'plain')).toEqual([[{ kind: 'plain', text: 'a' }], [], [{ kind: 'plain', text: 'b' }]]);
  });

  it('a 100 KB script (the most the viewer colours) costs what ten 10 KB scripts cost: linear', () => {
    const line = 'if [ "$X" = 1 ]; then curl -s "https://e.x/$Y" | jq .a # c\nfi\n';
    const text = line.repeat(1750);
    const lines = highlight(text, 'shell');
    expect(lines.length).toBe(3500);
    const tenth = line.repeat(175);
    const cost = withinFloor(
      () => highlight(text, 'shell'),
      () => {
        for (let i = 0; i < 10; i++) highlight(tenth, 'shell');
      },
      4,
    );
    expect(cost.ok, cost.said).toBe(true);
  });
});
