import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeSkill, makeDiagnostic, RULES, walkSkill } from './index.js';
import { ENGINE_MESSAGES, formatMessage, type Diagnostic } from '../contract/index.js';
import { loadRegistry, type Registry } from '../agents/registry.js';
import { makeSkill, removeRoot, RESOURCES, skillText, tempRoot } from '../../test/support/skills.js';

const root = tempRoot();
afterAll(() => removeRoot(root));
const opts = { resourcesDir: RESOURCES };

describe('analyzeSkill', () => {
  it('lists every file, sorted, with sizes, modes and raw link targets', async () => {
    const dir = makeSkill(root, 'files', {
      'SKILL.md': skillText({ name: 'files' }),
      'scripts/run.sh': { mode: 0o755, content: '#!/bin/sh\necho hi\n' },
      'references/b.md': 'b\n',
      'assets/a.txt': 'aa',
      'link.md': { link: 'references/b.md' },
      '.git/HEAD': 'ref: x\n',
    });
    const a = await analyzeSkill(dir, opts);
    expect(a.files.map((f) => f.path)).toEqual(['SKILL.md', 'assets/a.txt', 'link.md', 'references/b.md', 'scripts/run.sh']);
    const byPath = Object.fromEntries(a.files.map((f) => [f.path, f]));
    expect(byPath['scripts/run.sh'].executable).toBe(true);
    expect(byPath['assets/a.txt']).toMatchObject({ size: 2, executable: false });
    expect(byPath['link.md'].symlink).toBe('references/b.md');
    expect(byPath['SKILL.md'].symlink).toBeUndefined();
    expect(a.fileCount).toBe(5);
    expect(a.size).toBe(a.files.reduce((n, f) => n + f.size, 0));
    expect(a.dirName).toBe('files');
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('gives identical output for identical input, and a digest that follows content', async () => {
    const files = { 'SKILL.md': skillText({ name: 'same' }), 'scripts/x.py': 'print(1)\n', l: { link: 'scripts/x.py' } };
    const a = await analyzeSkill(makeSkill(path.join(root, 'one'), 'same', files), opts);
    const b = await analyzeSkill(makeSkill(path.join(root, 'two'), 'same', files), opts);
    const strip = (x: typeof a) =>
      JSON.stringify({
        ...x,
        dir: '',
        diagnostics: x.diagnostics.map((d) => ({ ...d, file: path.relative(x.dir, d.file) })),
        files: x.files.map((f) => ({ ...f, mtimeMs: 0 })),
      });
    expect(strip(a)).toBe(strip(b));
    expect(a.digest).toBe(b.digest);

    fs.writeFileSync(path.join(b.dir, 'scripts/x.py'), 'print(2)\n');
    expect((await analyzeSkill(b.dir, opts)).digest).not.toBe(a.digest);
    fs.writeFileSync(path.join(b.dir, 'scripts/x.py'), 'print(1)\n');
    expect((await analyzeSkill(b.dir, opts)).digest).toBe(a.digest);
    fs.unlinkSync(path.join(b.dir, 'l'));
    fs.symlinkSync('SKILL.md', path.join(b.dir, 'l'));
    expect((await analyzeSkill(b.dir, opts)).digest).not.toBe(a.digest);
  });

  it('digest: false skips the other files and leaves the digest empty', async () => {
    const dir = makeSkill(root, 'nodigest', { 'SKILL.md': skillText({ name: 'nodigest' }), 'big.bin': Buffer.alloc(3 << 20, 7) });
    const a = await analyzeSkill(dir, { ...opts, digest: false });
    expect(a.digest).toBe('');
    expect(a.name).toBe('nodigest');
    expect(a.files.find((f) => f.path === 'big.bin')?.size).toBe(3 << 20);
    const full = await analyzeSkill(dir, opts);
    expect(full.digest).toMatch(/^[0-9a-f]{64}$/); // large files are streamed
  });

  it('bounds the SKILL.md text it keeps but hashes all of it', async () => {
    const big = skillText({ name: 'huge', body: 'x'.repeat(17 << 20) });
    const dir = makeSkill(root, 'huge', { 'SKILL.md': big });
    const a = await analyzeSkill(dir, opts);
    expect(a.body.length).toBeLessThan(16 << 20);
    expect(a.name).toBe('huge');
    expect(a.diagnostics.map((d) => d.code)).toEqual(['body-too-long']);
    fs.appendFileSync(path.join(dir, 'SKILL.md'), 'y');
    expect((await analyzeSkill(dir, opts)).digest).not.toBe(a.digest);
  });

  it('counts body lines the same whether or not the body holds a reference', async () => {
    // A body with a `/` is counted by the reference scan, one without by a plain count.
    const cases: Array<[string, string, boolean]> = [
      ['plain-500', 'line\n'.repeat(500), false],
      ['plain-500-open', `${'line\n'.repeat(499)}last`, false],
      ['plain-501-open', `${'line\n'.repeat(500)}last`, true],
      ['ref-500', `see a/b\n${'line\n'.repeat(499)}`, false],
      ['ref-500-open', `see a/b\n${'line\n'.repeat(498)}last`, false],
      ['ref-501', `see a/b\n${'line\n'.repeat(500)}`, true],
      ['ref-501-open', `see a/b\n${'line\n'.repeat(499)}last`, true],
    ];
    for (const [name, body, long] of cases) {
      const a = await analyzeSkill(makeSkill(root, name, { 'SKILL.md': skillText({ name, body }) }), opts);
      const d = a.diagnostics.find((x) => x.code === 'body-too-long');
      expect(Boolean(d), name).toBe(long);
      if (d) expect(d.msg?.params?.lines, name).toBe(501);
    }
  });

  it('uses the name under the root when reached through a link', async () => {
    const real = makeSkill(root, 'real-place', { 'SKILL.md': skillText({ name: 'linked' }) });
    fs.mkdirSync(path.join(root, 'r'));
    fs.symlinkSync(real, path.join(root, 'r', 'linked'));
    const a = await analyzeSkill(path.join(root, 'r', 'linked'), { ...opts, dirName: 'linked' });
    expect(a.dirName).toBe('linked');
    expect(a.diagnostics).toEqual([]);
    const b = await analyzeSkill(real, opts);
    expect(b.diagnostics.map((d) => d.code)).toEqual(['name-dir-mismatch']);
  });

  it('fills record fields from the frontmatter', async () => {
    const dir = makeSkill(root, 'rec', {
      'SKILL.md': skillText({ name: 'rec', fm: 'license: MIT\nmetadata:\n  version: "2.1.0"\n  author: me\n', body: 'Line A\nLine B\n' }),
    });
    const a = await analyzeSkill(dir, opts);
    expect(a).toMatchObject({ name: 'rec', version: '2.1.0', stateId: 'rec-2.1.0', body: 'Line A\nLine B\n', bodyLine: 9 });
    expect(a.frontmatter).toEqual({
      name: 'rec',
      description: expect.any(String),
      license: 'MIT',
      metadata: { version: '2.1.0', author: 'me' },
    });
  });

  it('falls back to the dir name for the state id and never throws on a broken skill', async () => {
    const dir = makeSkill(root, 'Broken Skill', { 'SKILL.md': '---\nname: [unclosed\n---\n' });
    const a = await analyzeSkill(dir, opts);
    expect(a.name).toBeNull();
    expect(a.stateId).toBe('broken-skill');
    expect(a.diagnostics.map((d) => d.code)).toContain('frontmatter-yaml');
    const missing = await analyzeSkill(path.join(root, 'does-not-exist'), opts);
    expect(missing.diagnostics.map((d) => d.code)).toEqual(['skill-file-missing']);
    expect(missing.files).toEqual([]);
  });

  it('reports a dangling SKILL.md link without crashing', async () => {
    const dir = makeSkill(root, 'dangling', { 'SKILL.md': { link: 'nowhere.md' } });
    const a = await analyzeSkill(dir, opts);
    expect(a.diagnostics.map((d) => d.code).sort()).toEqual(['skill-file-missing', 'skill-file-symlink']);
  });

  it('never reads a device or FIFO behind a SKILL.md link, and never blocks on a FIFO', async () => {
    const dev = makeSkill(root, 'dev', { 'SKILL.md': { link: '/dev/zero' } });
    const a = await analyzeSkill(dev, opts);
    expect(a.diagnostics.map((d) => d.code).sort()).toEqual(['skill-file-missing', 'skill-file-symlink', 'symlink-escapes']);
    const fifoDir = makeSkill(root, 'fifo', { 'SKILL.md': skillText({ name: 'fifo' }) });
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(fifoDir, 'pipe')]);
    fs.symlinkSync('pipe', path.join(fifoDir, 'via-link'));
    const b = await analyzeSkill(fifoDir, opts);
    expect(b.files.map((f) => f.path)).toEqual(['SKILL.md', 'via-link']);
    expect(b.diagnostics).toEqual([]);
    const fifoSkill = makeSkill(root, 'fifo-skill', {});
    execFileSync('mkfifo', [path.join(fifoSkill, 'pipe')]);
    fs.symlinkSync('pipe', path.join(fifoSkill, 'SKILL.md'));
    const c = await analyzeSkill(fifoSkill, opts); // would hang without O_NONBLOCK
    expect(c.diagnostics.map((d) => d.code).sort()).toEqual(['skill-file-missing', 'skill-file-symlink']);
  });

  it('never follows links out of the skill and skips special files', async () => {
    const outside = makeSkill(root, 'outside', { 'secret.txt': 'secret' });
    const dir = makeSkill(root, 'walker', { 'SKILL.md': skillText({ name: 'walker' }), out: { link: outside }, loop: { link: '.' } });
    const a = await analyzeSkill(dir, opts);
    expect(a.files.map((f) => f.path)).toEqual(['SKILL.md', 'loop', 'out']);
    expect(a.diagnostics.map((d) => `${d.code}:${path.basename(d.file)}`)).toEqual(['symlink-escapes:out']);
  });

  it('reports a nested skill two levels down with the agents that miss it', async () => {
    const dir = makeSkill(root, 'outer', { 'SKILL.md': skillText({ name: 'outer' }), 'a/b/SKILL.md': skillText({ name: 'b' }) });
    const a = await analyzeSkill(dir, opts);
    const d = a.diagnostics.find((x) => x.code === 'skill-nested');
    expect(d?.file).toBe(path.join(dir, 'a/b/SKILL.md'));
    // three levels below a root: Codex (max 6) and OpenCode (unbounded) still find it
    expect(d?.agents).toEqual(['claude', 'gemini', 'qwen', 'generic']);
  });
});

describe('references', () => {
  it('ignores URLs, anchors, placeholders and prose, and follows links inside the skill', async () => {
    const text = [
      'See [site](https://example.com/scripts/x.py), [mail](mailto:a@b.c), [top](#steps) and [api](references/api.md#auth).',
      'Run `python scripts/<name>.py` from scripts/ or references/; globs like scripts/*.py are fine.',
      'Shared: [doc](shared/api.md). Escaped: [sp](references/my%20notes.md).',
      '```',
      'python scripts/run.py --in [x](not-a-link.md)',
      '```',
    ].join('\n');
    const dir = makeSkill(root, 'refs', {
      'SKILL.md': skillText({ name: 'refs', body: `${text}\n` }),
      'references/api.md': '# API\n',
      'references/my notes.md': 'n\n',
      'scripts/run.py': 'print(1)\n',
      shared: { link: 'references' },
    });
    const a = await analyzeSkill(dir, opts);
    expect(a.diagnostics).toEqual([]);
    fs.unlinkSync(path.join(dir, 'scripts/run.py'));
    const b = await analyzeSkill(dir, opts);
    expect(b.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(['reference-broken@9']);
  });

  it('reads a lower-case skill.md for its fields while reporting it', async () => {
    const dir = makeSkill(root, 'lower', { 'skill.md': skillText({ name: 'lower' }) });
    const a = await analyzeSkill(dir, opts);
    expect(a.name).toBe('lower');
    expect(a.diagnostics.map((d) => d.code)).toEqual(['skill-file-case']);
    expect(a.diagnostics[0].agents).toEqual(['claude', 'gemini', 'codex', 'opencode', 'qwen', 'copilot']);
  });
});

describe('walkSkill', () => {
  it('reads nothing unless asked (signature walks), the skill file or every file when asked', () => {
    const dir = makeSkill(root, 'walk', { 'SKILL.md': skillText({ name: 'walk' }), 'a/b.txt': 'b' });
    const bare = walkSkill(dir);
    expect(bare.files.map((f) => f.path)).toEqual(['SKILL.md', 'a/b.txt']);
    expect(bare.skillFiles.size + bare.hashes.size).toBe(0);
    expect([...bare.dirs]).toEqual(['a']);
    const read = walkSkill(dir, { readSkillFile: true });
    expect(read.skillFiles.get('SKILL.md')?.toString()).toBe(skillText({ name: 'walk' }));
    expect(read.hashes.size).toBe(0);
    const hashed = walkSkill(dir, { hash: true });
    expect([...hashed.hashes.keys()]).toEqual(['SKILL.md', 'a/b.txt']);
    expect(hashed.hashes.get('a/b.txt')).toBe('3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d');
  });
});

describe('rule table', () => {
  // The rule table is documented in docs/lint-rules.md (code, severity, when); the engine's RULES
  // must be exactly that table, so a code added on one side only fails here. Read from the doc, not
  // copied into this file: the doc ships in the repo, so the check always runs.
  const docFile = path.resolve(RESOURCES, '../docs/lint-rules.md');
  const table = [...fs.readFileSync(docFile, 'utf8').matchAll(/^\| `([a-z-]+)` \| (error|warning|info) \|/gm)].map(
    (m) => [m[1], m[2]] as const,
  );

  it('the documented table is read: every row of the Codes section', () => {
    const doc = fs.readFileSync(docFile, 'utf8');
    const section = doc.slice(doc.indexOf('## Codes'), doc.indexOf('\n## ', doc.indexOf('## Codes') + 1));
    const rows = section.split('\n').filter((l) => /^\| `/.test(l));
    expect(table.length).toBe(rows.length);
    expect(table.length).toBeGreaterThan(40);
  });

  it('has one entry per code, with its severity and a one-sentence fix in the message table', () => {
    expect(Object.keys(RULES).sort()).toEqual(table.map(([c]) => c).sort());
    const english = ENGINE_MESSAGES as Record<string, string>;
    for (const [code, severity] of table) {
      expect(RULES[code].severity, code).toBe(severity);
      const fix = english[`diag.${code}.fix`];
      expect(fix, code).toMatch(/^[A-Z][^]*\.$/);
      expect(fix.split('. ').length, code).toBe(1);
    }
  });

  it('makeDiagnostic fills severity, fix and agents from the table and the registry, with message keys', () => {
    const registry = loadRegistry(RESOURCES);
    const d = makeDiagnostic(
      'skill-duplicate',
      { says: 'message', params: { name: 'x', others: ['x2', 'x3'], root: '/r' }, file: '/r/x' },
      registry,
    );
    expect(d).toEqual({
      code: 'skill-duplicate',
      severity: 'warning',
      message: 'The name "x" is also used by x2, x3 in the same root (/r).',
      msg: { key: 'diag.skill-duplicate.message', params: { name: 'x', others: ['x2', 'x3'], root: '/r' } },
      file: '/r/x',
      fix: 'Keep one skill per name in a root: rename or remove the other.',
      fixMsg: { key: 'diag.skill-duplicate.fix' },
      agents: ['codex', 'opencode'],
    });
    expect(makeDiagnostic('link-cycle', { says: 'message', file: 'f', line: 2 })).toMatchObject({ severity: 'error', line: 2 });
    expect(
      makeDiagnostic('field-unknown', {
        says: 'extension',
        params: { field: 'x', agents: ['a'] },
        file: 'f',
        severity: 'info',
        fixSays: 'fix-extension',
        agents: ['a'],
      }),
    ).toMatchObject({
      severity: 'info',
      fix: 'Keep it if you target those agents; other agents ignore it.',
      fixMsg: { key: 'diag.field-unknown.fix-extension' },
      agents: ['a'],
    });
    expect(() => makeDiagnostic('no-such-code', { says: 'message', file: 'f' })).toThrow(/Unknown/);
  });

  it('every diagnostic the analyzer raises has a message key with an English template and no unfilled placeholder', async () => {
    const english = ENGINE_MESSAGES as Record<string, string>;
    const all = [...(await analyzeMany())];
    expect(all.length).toBeGreaterThan(10);
    for (const d of all) {
      expect(english[d.msg!.key], d.msg!.key).toBeDefined();
      expect(english[d.fixMsg!.key], d.fixMsg!.key).toBeDefined();
      expect(d.message, d.code).toBe(formatMessage(d.msg!));
      expect(d.message, d.code).not.toMatch(/\{\{|diag\./);
    }
  });

  it('derives agents from registry data, not from ids in code', () => {
    const base = loadRegistry(RESOURCES);
    const changed: Registry = {
      ...base,
      agents: base.agents.map((a) => (a.id === 'qwen' ? { ...a, dotDirs: 'skipped' as const, symlinkedSkillFile: 'ignored' as const } : a)),
    };
    expect(makeDiagnostic('skill-dot-dir', { says: 'message', file: 'f' }, changed).agents).toEqual([
      'gemini',
      'codex',
      'opencode',
      'qwen',
      'copilot',
    ]);
    expect(makeDiagnostic('skill-file-symlink', { says: 'message', file: 'f' }, changed).agents).toEqual(['codex', 'qwen']);
  });
});

/** Broken skills that raise most diagnostic codes and their variants. */
async function analyzeMany(): Promise<Diagnostic[]> {
  const base = path.join(root, 'many');
  const texts: Record<string, string> = {
    'no-fm': '# nothing\n',
    bom: '\ufeff---\nname: bom\ndescription: d\n---\nbody\n',
    blank: '\n\n---\nname: blank\ndescription: d\n---\nbody\n',
    code: '---js\n{ name: "x" }\n---\nbody\n',
    unclosed: '---\nname: unclosed\n',
    yaml: '---\nname: [a\n---\nbody\n',
    list: '---\n- a\n- b\n---\nbody\n',
    strict: '---\nname: strict\ndescription: a: b\nx: &a 1\ny: *a\nz: [1, 2]\nname: again\n---\nbody\n',
    tab: '---\nname: tab\ndescription:\td\n---\nbody\n',
    'Bad--Name-':
      '---\nname: Bad--Name-!\ndescription: d <x>\ncompatibility: 3\nlicense: [a]\nmetadata: 1\nallowed-tools: 2\nwhen_to_use: w\nfoo: 1\n---\n',
    'no-name': '---\ndescription: ""\nmetadata:\n  a: 1\n---\nSee [x](missing.md) and /etc/passwd and ../out.md\nwrites ~/.cache/thing\n',
    'claude-helper': '---\nname: claude-helper\ndescription: 5\n---\nbody\n',
    unicode: '---\nname: ünïcode\ndescription: d\ncompatibility: ""\n---\nbody\n',
  };
  const out: Diagnostic[] = [];
  for (const [dir, text] of Object.entries(texts)) {
    const d = makeSkill(base, dir, { 'SKILL.md': text });
    out.push(...(await analyzeSkill(d, opts)).diagnostics);
  }
  const empty = makeSkill(base, '.dotted', { 'readme.txt': 'x' });
  out.push(...(await analyzeSkill(empty, opts)).diagnostics);
  return out;
}
