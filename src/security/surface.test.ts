import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getInventory } from './surface.js';
import { corpusDir, tmpDir, writeSkill } from '../../test/support/security.js';

const root = tmpDir();
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('inventory of the executable surface', () => {
  it('lists scripts/, executable and shebang files, referenced files, body commands, hooks and allowed-tools', () => {
    const dir = writeSkill(
      root,
      'full',
      [
        '# Full',
        '',
        'Check with `python tools/check.py input.pdf` first, then run node lib/build.js when asked.',
        '',
        '```bash',
        '# a comment',
        'pip install pypdf',
        'python scripts/fill.py \\',
        '  in.pdf out.pdf',
        '```',
        '',
        '```console',
        '$ make test',
        'ok 12 tests',
        '```',
        '',
        '```python',
        'print("example, not a command")',
        '```',
        '',
      ].join('\n'),
      {
        'scripts/fill.py': 'print(1)\n',
        'tools/check.py': 'print(2)\n',
        'lib/build.js': 'console.log(3)\n',
        'bin/tool': { text: 'echo hi\n', mode: 0o755 },
        'helpers/run': '#!/bin/sh\necho run\n',
        'references/guide.md': '# Guide\n',
        'assets/template.txt': 'template\n',
      },
      'allowed-tools: Read Bash(git:*)\nhooks:\n  PostToolUse:\n    - matcher: Write\n      hooks:\n        - type: command\n          command: npx prettier --write\n',
    );
    const inv = getInventory(dir);
    expect(inv.name).toBe('full');
    expect(inv.files.map((f) => [f.path, f.reasons])).toEqual([
      ['bin/tool', ['executable-bit']],
      ['helpers/run', ['shebang']],
      ['lib/build.js', ['referenced']],
      ['scripts/fill.py', ['scripts-dir', 'referenced']],
      ['tools/check.py', ['referenced']],
    ]);
    expect(inv.files.find((f) => f.path === 'helpers/run')?.shebang).toBe('#!/bin/sh');
    expect(inv.commands.map((c) => [c.text, c.source])).toEqual([
      ['python tools/check.py input.pdf', 'inline'],
      ['node lib/build.js', 'prose'],
      ['pip install pypdf', 'fenced'],
      ['python scripts/fill.py in.pdf out.pdf', 'fenced'],
      ['make test', 'fenced'],
    ]);
    expect(inv.commands.find((c) => c.text.startsWith('python scripts'))?.files).toEqual(['scripts/fill.py']);
    expect(inv.allowedTools).toBe('Read Bash(git:*)');
    expect(inv.grantsShell).toBe(true);
    expect(inv.hooks).toEqual({ PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'npx prettier --write' }] }] });
    expect(inv.hasExecutableSurface).toBe(true);
    expect(inv.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a prose-only skill has no executable surface', () => {
    const inv = getInventory(path.join(corpusDir, 'brand-guidelines'));
    expect(inv).toMatchObject({ files: [], commands: [], hooks: null, allowedTools: null, hasExecutableSurface: false });
  });

  it('allowed-tools without a shell is recorded but is not a surface by itself', () => {
    const dir = writeSkill(root, 'readonly', '# R\n\nRead the files.\n', {}, 'allowed-tools: Read Grep Glob\n');
    const inv = getInventory(dir);
    expect(inv.grantsShell).toBe(false);
    expect(inv.hasExecutableSurface).toBe(false);
  });
});

describe('surface digest', () => {
  const make = (name: string) =>
    writeSkill(root, name, '# Tool\n\nUse it for tables.\n\n```bash\npython scripts/t.py data.csv\n```\n', {
      'scripts/t.py': 'import sys\nprint(open(sys.argv[1]).read())\n',
      'references/notes.md': '# Notes\n',
    });

  it('does not change when only prose changes (body text, references, description)', () => {
    const dir = make('prose');
    const before = getInventory(dir).digest;
    const md = path.join(dir, 'SKILL.md');
    fs.writeFileSync(
      md,
      fs
        .readFileSync(md, 'utf8')
        .replace('Use it for tables.', 'Use it for tables and other tabular data.\n\nA whole new paragraph.')
        .replace('description: Test skill prose.', 'description: A better description.'),
    );
    fs.writeFileSync(path.join(dir, 'references', 'notes.md'), '# Notes\n\nMore notes.\n');
    expect(getInventory(dir).digest).toBe(before);
  });

  it('changes with a one-byte change to a script', () => {
    const dir = make('onebyte');
    const before = getInventory(dir).digest;
    const file = path.join(dir, 'scripts', 't.py');
    const buf = fs.readFileSync(file);
    buf[buf.length - 2] = buf[buf.length - 2] === 0x29 ? 0x20 : 0x29;
    fs.writeFileSync(file, buf);
    expect(getInventory(dir).digest).not.toBe(before);
  });

  it('changes when a body command changes, a script is added, or a file becomes executable', () => {
    const dir = make('cmd');
    const d0 = getInventory(dir).digest;
    const md = path.join(dir, 'SKILL.md');
    fs.writeFileSync(md, fs.readFileSync(md, 'utf8').replace('data.csv', 'data.csv --all'));
    const d1 = getInventory(dir).digest;
    expect(d1).not.toBe(d0);
    fs.writeFileSync(path.join(dir, 'scripts', 'extra.sh'), 'echo extra\n');
    const d2 = getInventory(dir).digest;
    expect(d2).not.toBe(d1);
    fs.chmodSync(path.join(dir, 'references', 'notes.md'), 0o755);
    expect(getInventory(dir).digest).not.toBe(d2);
  });

  it('is the same for the same surface in another folder (it pins content, not location)', () => {
    expect(getInventory(make('copy-a')).digest.length).toBe(64);
    const a = getInventory(path.join(root, 'copy-a'));
    const b = getInventory(make('copy-b'));
    expect(a.digest).toBe(b.digest);
  });
});

describe('the surface digest, one component at a time', () => {
  // Each part the approval covers changes the digest on its own (the security README's promise);
  // prose that runs nothing does not.
  const base = {
    body: 'Run `sh scripts/go.sh` when asked.\n',
    files: { 'scripts/go.sh': 'echo go\n' } as Record<string, string>,
    fm: 'allowed-tools: Read Grep\nhooks:\n  PreToolUse: echo hi\n',
  };
  let n = 0;
  const digestOf = (v: Partial<typeof base>) => {
    const s = { ...base, ...v };
    return getInventory(writeSkill(root, `digest-${n++}`, s.body, s.files, s.fm)).digest;
  };
  const ref = digestOf({});

  it('is stable for the same skill', () => {
    expect(digestOf({})).toBe(ref);
  });
  it('changes with a script', () => {
    expect(digestOf({ files: { 'scripts/go.sh': 'echo gone\n' } })).not.toBe(ref);
  });
  it('changes with hooks', () => {
    expect(digestOf({ fm: 'allowed-tools: Read Grep\nhooks:\n  PreToolUse: echo other\n' })).not.toBe(ref);
    expect(digestOf({ fm: 'allowed-tools: Read Grep\n' })).not.toBe(ref);
  });
  it('changes with allowed-tools', () => {
    expect(digestOf({ fm: 'allowed-tools: Read Grep Bash\nhooks:\n  PreToolUse: echo hi\n' })).not.toBe(ref);
  });
  it('changes with a command in the body, not with prose', () => {
    expect(digestOf({ body: 'Run `sh scripts/go.sh --force` when asked.\n' })).not.toBe(ref);
    expect(digestOf({ body: 'Run `sh scripts/go.sh` when asked.\n\nSome more words.\n' })).toBe(ref);
  });
});
