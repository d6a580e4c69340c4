import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import matter from 'gray-matter';
import { parseDocument } from 'yaml';
import { parseSkillText } from './index.js';
import { parseSimpleYaml } from './simple-yaml.js';
import { CodeRefused, splitFrontmatter } from './matter-split.js';
import { loadRegistry } from '../agents/registry.js';
import { removeRoot, RESOURCES, skillText, tempRoot } from '../../test/support/skills.js';
import { withinFloor } from '../../test/support/speed.js';

const root = tempRoot();
afterAll(() => removeRoot(root));
const registry = loadRegistry(RESOURCES);
const codes = (text: string) => parseSkillText(text, 'SKILL.md', registry).diagnostics.map((d) => d.code);

describe('executable frontmatter is never run', () => {
  for (const lang of ['js', 'javascript', 'JS', ' js ', 'coffee', 'json']) {
    it(`refuses ---${lang} without evaluating it`, () => {
      const marker = path.join(root, `ran-${lang.trim()}-${Math.random().toString(36).slice(2)}`);
      const payload = `{ name: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'), 'x'), description: 'd' }`;
      const text = `---${lang}\n${payload}\n---\nBody.\n`;
      const r = parseSkillText(text, 'SKILL.md', registry);
      expect(r.frontmatter).toBeNull();
      expect(r.diagnostics.map((d) => d.code)).toEqual(['frontmatter-code']);
      expect(r.body).toBe('Body.\n');
      expect(fs.existsSync(marker)).toBe(false);
      if (lang === 'js') {
        // The fixture is live: gray-matter with its default engines does run it.
        matter(text);
        expect(fs.readFileSync(marker, 'utf8')).toBe('ran');
      }
    });
  }

  // Two layers, each guarded alone: the language check on the opening line (parse.ts) answers first
  // and says which language; gray-matter's engines (matter-split.ts) refuse code whatever reached
  // them. Without the first, the second would still refuse, but with another message; without the
  // second, a caller that skipped the first would run the code.
  it('the language check alone: names the language, and gray-matter is never reached', () => {
    const r = parseSkillText("---js\n{ name: 'x' }\n---\nBody.\n", 'SKILL.md', registry);
    expect(r.diagnostics.map((d) => d.msg)).toEqual([{ key: 'diag.frontmatter-code.language', params: { language: 'js' } }]);
  });

  for (const lang of ['js', 'javascript', 'JS', 'coffee', 'CoffeeScript', 'cson', 'json']) {
    it(`the gray-matter layer alone refuses ---${lang} without evaluating it`, () => {
      const marker = path.join(root, `split-${lang}-${Math.random().toString(36).slice(2)}`);
      const payload = `{ name: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran'), 'x') }`;
      let yamlRead = false;
      expect(() =>
        splitFrontmatter(`---${lang}\n${payload}\n---`, () => {
          yamlRead = true;
        }),
      ).toThrow(CodeRefused);
      expect(yamlRead).toBe(false);
      expect(fs.existsSync(marker)).toBe(false);
    });
  }

  it('the gray-matter layer hands YAML to our reader', () => {
    let yamlRead = 0;
    splitFrontmatter('---\na: [1]\n---', () => yamlRead++);
    splitFrontmatter('---yaml\na: [1]\n---', () => yamlRead++);
    expect(yamlRead).toBe(2);
  });

  it('leaves gray-matter defaults and cache untouched', () => {
    const cache = () => Object.keys((matter as unknown as { cache: Record<string, unknown> }).cache).length;
    const before = cache();
    parseSkillText(skillText({ body: `unique ${Math.random()}` }), 'SKILL.md');
    expect(cache()).toBe(before);
    expect(matter('---\na: 1\n---\n').data).toEqual({ a: 1 }); // default engines still intact
  });
});

describe('hostile YAML is bounded', () => {
  const bomb = (style: 'flow' | 'block') => {
    const lines = [
      '---',
      'name: demo',
      'description: d',
      `l0: &l0 ${style === 'flow' ? '["lol","lol","lol","lol","lol","lol","lol","lol","lol"]' : '"lol"'}`,
    ];
    for (let i = 1; i < 10; i++) {
      const refs = Array.from({ length: 9 }, () => `*l${i - 1}`);
      lines.push(style === 'flow' ? `l${i}: &l${i} [${refs.join(',')}]` : `l${i}: &l${i}\n${refs.map((r) => `  - ${r}`).join('\n')}`);
    }
    return `${lines.join('\n')}\n---\nBody.\n`;
  };
  for (const style of ['flow', 'block'] as const) {
    it(`a billion-laughs document (${style}) fails fast with bounded memory`, () => {
      global.gc?.();
      const heap = process.memoryUsage().heapUsed;
      // Fails fast: the alias limit stops it before any expansion. Without it the expansion never
      // ends (the test's timeout) and the heap grows far past the bound below.
      const r = parseSkillText(bomb(style), 'SKILL.md', registry);
      expect(process.memoryUsage().heapUsed - heap).toBeLessThan(64 * 1024 * 1024);
      expect(r.frontmatter).toBeNull();
      const y = r.diagnostics.find((d) => d.code === 'frontmatter-yaml');
      expect(y?.message).toMatch(/alias/i);
    });
  }

  it('many blank lines in the frontmatter stay linear (gray-matter comment regex guard)', () => {
    const text = `---\n${'\n'.repeat(60_000)}name: demo\ndescription: d\n---\nBody.\n`;
    // The floor: one linear regex pass over the same lines (the quadratic comment regex took seconds).
    const floor = () => text.split('\n').filter((l) => /^\s*#/.test(l)).length;
    const cost = withinFloor(() => parseSkillText(text, 'SKILL.md'), floor, 50, 50);
    expect(cost.ok, cost.said).toBe(true);
    const r = parseSkillText(text, 'SKILL.md');
    expect(r.frontmatter).toEqual({ name: 'demo', description: 'd' });
    expect(r.keyLines.name).toBe(60_002);
  });
});

describe('delimiters, BOM, CRLF', () => {
  it('parses CRLF files like LF files, with the same lines', () => {
    const lf = skillText({ fm: 'license: MIT\n', body: 'One.\nTwo.\n' });
    const a = parseSkillText(lf, 'SKILL.md');
    const b = parseSkillText(lf.replace(/\n/g, '\r\n'), 'SKILL.md');
    expect(b.crlf).toBe(true);
    expect(b.frontmatter).toEqual(a.frontmatter);
    expect(b.body).toBe(a.body);
    expect(b.bodyLine).toBe(a.bodyLine);
    expect(b.keyLines).toEqual(a.keyLines);
    expect(b.diagnostics).toEqual([]);
  });

  it('reads through a BOM but reports it, naming the agents that drop the skill', () => {
    const r = parseSkillText(`\uFEFF${skillText()}`, 'SKILL.md', registry);
    expect(r.hadBom).toBe(true);
    expect(r.frontmatter?.name).toBe('demo');
    expect(r.diagnostics).toMatchObject([{ code: 'frontmatter-not-first', line: 1, agents: ['gemini', 'codex'] }]);
  });

  it('reports blank lines and indentation before ---, with the opening line', () => {
    const r = parseSkillText(`\n\n${skillText()}`, 'SKILL.md', registry);
    expect(r.diagnostics).toMatchObject([{ code: 'frontmatter-not-first', line: 3 }]);
    expect(r.diagnostics[0].agents).toEqual(['claude', 'gemini', 'codex', 'opencode', 'qwen', 'copilot']);
    expect(r.keyLines.name).toBe(4);
    expect(codes(`  ${skillText()}`)).toEqual(['frontmatter-not-first']);
  });

  it('handles unclosed, missing, empty and non-map frontmatter', () => {
    expect(codes('---\nname: demo\n')).toEqual(['frontmatter-unclosed']);
    expect(codes('# Title\n')).toEqual(['frontmatter-missing']);
    expect(codes('----\nname: x\n----\n')).toEqual(['frontmatter-missing']);
    expect(codes('---\n---\nBody')).toEqual(['frontmatter-not-map']);
    expect(codes('---\n\n# only a comment\n---\nBody')).toEqual(['frontmatter-not-map']);
    expect(codes('---\n- a\n---\n')).toEqual(['frontmatter-not-map']);
    expect(codes('---\njust words\n---\n')).toEqual(['frontmatter-not-map']);
    expect(codes('---\n42\n---\n')).toEqual(['frontmatter-not-map']);
  });

  it('gives YAML errors a line and column in the file', () => {
    const r = parseSkillText('---\nname: demo\ndescription: d\nbad: [1, 2\n---\nBody\n', 'SKILL.md');
    const d = r.diagnostics.find((x) => x.code === 'frontmatter-yaml');
    expect(d?.line).toBeGreaterThanOrEqual(4);
    expect(d?.column).toBeGreaterThan(0);
  });
});

describe('strict YAML warnings keep the values', () => {
  const strict = (fm: string) => {
    const r = parseSkillText(`---\nname: demo\ndescription: d\n${fm}---\nBody\n`, 'SKILL.md');
    return { r, msgs: r.diagnostics.filter((d) => d.code === 'frontmatter-strict').map((d) => `${d.line}:${d.message}`) };
  };
  it('tabs', () => expect(strict('license:\tMIT\n').msgs[0]).toMatch(/^4:.*tab/));
  it('flow style', () => expect(strict('metadata: {a: "1"}\n').msgs[0]).toMatch(/^4:.*Flow/));
  it('anchors and aliases', () => expect(strict('license: &l MIT\ncompatibility: *l\n').msgs[0]).toMatch(/^4:.*anchor/i));
  it('duplicate keys (last value kept)', () => {
    const { r, msgs } = strict('license: MIT\nlicense: BSD\n');
    expect(msgs[0]).toMatch(/^5:.*Duplicate/);
    expect(r.frontmatter?.license).toBe('BSD');
  });
  it('an unquoted `: ` inside a value is read as text, as agents do', () => {
    const r = parseSkillText('---\nname: demo\ndescription: Use when: the user asks # note\n---\nBody\n', 'SKILL.md');
    expect(r.frontmatter?.description).toBe('Use when: the user asks');
    expect(r.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(['frontmatter-strict@3']);
  });
  it('--- inside a value', () => {
    const r = parseSkillText('---\nname: demo\ndescription: a --- b\n---\nBody\n', 'SKILL.md');
    expect(r.frontmatter?.description).toBe('a --- b');
    expect(r.diagnostics).toMatchObject([{ code: 'frontmatter-dashes-in-value', line: 3, column: 16 }]);
  });
  it('clean YAML gets no warning', () => expect(strict('license: MIT\nmetadata:\n  a: "1"\n').msgs).toEqual([]));
});

describe('frontmatter values', () => {
  it('keeps every field, JSON-safe', () => {
    const r = parseSkillText(
      '---\nname: demo\ndescription: d\nmetadata:\n  released: 2024-01-02\n  n: .inf\nx-extra:\n  - 1\n  - true\n__proto__: p\n---\n',
      'SKILL.md',
    );
    const fm = r.frontmatter!;
    expect(fm.metadata).toEqual({ released: '2024-01-02T00:00:00.000Z', n: 'Infinity' });
    expect(fm['x-extra']).toEqual([1, true]);
    expect(Object.getPrototypeOf(fm)).toBe(Object.prototype);
    expect(Object.keys(fm)).toContain('__proto__');
    expect(JSON.parse(JSON.stringify(fm))).toEqual(fm);
    expect(r.keyLines).toMatchObject({ name: 2, description: 3, metadata: 4, 'metadata.released': 5, 'x-extra': 7 });
  });

  it('returns fresh objects: mutating one result does not leak into the next', () => {
    const text = skillText({ fm: 'metadata:\n  a: "1"\n' });
    const a = parseSkillText(text, 'SKILL.md');
    (a.frontmatter!.metadata as Record<string, string>).a = 'changed';
    expect(parseSkillText(text, 'SKILL.md').frontmatter!.metadata).toEqual({ a: '1' });
  });

  it('identical input gives identical output', () => {
    const text = `\uFEFF\n---\nname: Demo\ndescription: "x"\nfoo: [1]\nfoo: 2\n---\nSee ~/.x/y\n`;
    expect(JSON.stringify(parseSkillText(text, 'SKILL.md', registry))).toBe(JSON.stringify(parseSkillText(text, 'SKILL.md', registry)));
  });
});

describe('the simple-YAML fast path agrees with the yaml package', () => {
  // Deterministic pseudo-random blocks built from tricky pieces; whenever the fast path accepts a
  // block, its value must equal what `yaml` (core schema) makes of it, with no errors or warnings.
  let seed = 12345;
  const rnd = (n: number) => {
    // mulberry32: small, seeded, good enough spread for test data
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const scalars = [
    'plain text',
    'True',
    'true',
    'FALSE',
    'null',
    'Null',
    '~',
    '1.0',
    '0x1F',
    '.inf',
    '2024-01-01',
    "'single'",
    '"double"',
    '"esc \\" x"',
    "'it''s'",
    'a: b',
    'a #c',
    'C#',
    'x:',
    'é accent',
    '[flow]',
    '{a: b}',
    '&anc x',
    '*ref',
    '!tag x',
    '|',
    '>',
    '- item',
    'yes',
    'no',
    'on',
    'a  b  ',
    '#comment',
    '@at',
    '`tick',
    '%pct',
    'Use [x] to y',
    'a,b',
    "'",
    '"',
    'ünïcödé ✓',
    'x\u0085y',
    'tab\there',
    '"a\\nb"',
    "''",
    '""',
    'k: v: w',
    'url http://x',
    'ends with colon:',
    'Ünder',
    '?q',
    'a\\b',
  ];
  const keys = [
    'name',
    'description',
    'license',
    'metadata',
    'allowed-tools',
    'x.y',
    'true',
    'null',
    '_k',
    'k-1',
    'a b',
    '"q"',
    '__proto__',
    '1a',
  ];
  const line = (): string => {
    const r = rnd(10);
    if (r === 0) return '';
    if (r === 1) return ['# comment', '  # indented comment', '   ', '...'][rnd(4)];
    const indent = r < 4 ? ['  ', '    ', ' ', '\t'][rnd(4)] : '';
    const value = rnd(6) === 0 ? '' : ` ${scalars[rnd(scalars.length)]}`;
    return `${indent}${keys[rnd(keys.length)]}:${value}${rnd(5) === 0 ? '  ' : ''}`;
  };

  it('on 8000 generated blocks', () => {
    let accepted = 0;
    for (let i = 0; i < 8000; i++) {
      const block = `\n${Array.from({ length: 1 + rnd(6) }, line).join('\n')}\n`;
      const fast = parseSimpleYaml(block);
      if (!fast) continue;
      accepted++;
      const doc = parseDocument(block, { schema: 'core', customTags: ['timestamp'], uniqueKeys: false });
      expect(doc.errors, block).toEqual([]);
      expect(doc.warnings, block).toEqual([]);
      expect(fast.value, block).toEqual(doc.toJS());
    }
    expect(accepted).toBeGreaterThan(200);
  });
});
