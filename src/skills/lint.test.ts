import { afterAll, describe, expect, it } from 'vitest';
import { analyzeSkill } from './index.js';
import { makeSkill, removeRoot, RESOURCES, skillText, tempRoot, type FixtureFile } from '../../test/support/skills.js';

// One fixture that triggers and one that does not, for every per-skill lint code.

interface Fixture {
  dirName?: string;
  files: Record<string, FixtureFile>;
}
interface Case {
  code: string;
  bad: Fixture;
  good: Fixture;
}

const clean = (fm = '', body?: string): Fixture => ({ files: { 'SKILL.md': skillText({ fm, body }) } });
const named = (name: string): Fixture => ({ dirName: name, files: { 'SKILL.md': skillText({ name }) } });
const described = (description: string, fm = ''): Fixture => ({ files: { 'SKILL.md': skillText({ description, fm }) } });
const body = (text: string, extra: Record<string, FixtureFile> = {}): Fixture => ({
  files: { 'SKILL.md': skillText({ body: text }), ...extra },
});
const raw = (text: string): Fixture => ({ files: { 'SKILL.md': text } });
const emoji = '\u{1F600}';

const cases: Case[] = [
  { code: 'skill-file-missing', bad: { files: { 'README.md': '# not a skill\n' } }, good: clean() },
  { code: 'skill-file-case', bad: { files: { 'skill.md': skillText() } }, good: clean() },
  { code: 'frontmatter-missing', bad: raw('# Demo\n\nNo frontmatter here.\n'), good: clean() },
  { code: 'frontmatter-not-first', bad: raw(`\n${skillText()}`), good: clean() },
  { code: 'frontmatter-unclosed', bad: raw('---\nname: demo\ndescription: Demo.\n# Demo\n'), good: clean() },
  { code: 'frontmatter-yaml', bad: raw('---\nname: demo\ndescription: "unterminated\n---\nBody.\n'), good: clean() },
  { code: 'frontmatter-not-map', bad: raw('---\n- name\n- demo\n---\nBody.\n'), good: clean() },
  { code: 'frontmatter-code', bad: raw('---js\n{ name: "demo" }\n---\nBody.\n'), good: clean() },
  { code: 'frontmatter-strict', bad: raw('---\nname: demo\nname: demo\ndescription: Demo.\n---\nBody.\n'), good: clean() },
  { code: 'frontmatter-dashes-in-value', bad: described('Before --- after.'), good: described('Before - after.') },
  { code: 'name-missing', bad: raw('---\ndescription: Demo.\n---\nBody.\n'), good: clean() },
  { code: 'name-not-string', bad: { dirName: '42', files: { 'SKILL.md': skillText({ name: '42' }) } }, good: named('x42') },
  { code: 'name-too-long', bad: named('a'.repeat(65)), good: named('a'.repeat(64)) },
  { code: 'name-invalid', bad: named('Demo_Skill'), good: named('demo-skill') },
  { code: 'name-unicode', bad: named('café'), good: named('cafe') },
  { code: 'name-dir-mismatch', bad: { dirName: 'demo', files: { 'SKILL.md': skillText({ name: 'other' }) } }, good: clean() },
  { code: 'name-reserved', bad: named('claude-helper'), good: named('helper') },
  { code: 'description-missing', bad: raw('---\nname: demo\n---\nBody.\n'), good: clean() },
  { code: 'description-not-string', bad: described('42'), good: described('"42"') },
  { code: 'description-empty', bad: described('"  "'), good: described('Demo.') },
  // 1024 astral code points are 2048 UTF-16 units: within the limit.
  { code: 'description-too-long', bad: described('x'.repeat(1025)), good: described('x'.repeat(1024)) },
  { code: 'description-angle-brackets', bad: described('Use for <html> files.'), good: described('Use for HTML files.') },
  {
    code: 'description-budget',
    bad: described('d'.repeat(1000), `when_to_use: ${'w'.repeat(600)}\n`),
    good: described('d'.repeat(1000), `when_to_use: ${'w'.repeat(500)}\n`),
  },
  {
    code: 'compatibility-invalid',
    bad: clean(`compatibility: ${'c'.repeat(501)}\n`),
    good: clean('compatibility: Needs python3 and git.\n'),
  },
  { code: 'license-invalid', bad: clean('license: 3\n'), good: clean('license: MIT\n') },
  { code: 'metadata-not-map', bad: clean('metadata: just a string\n'), good: clean('metadata:\n  author: someone\n') },
  { code: 'metadata-value-not-string', bad: clean('metadata:\n  version: 1.0\n'), good: clean('metadata:\n  version: "1.0"\n') },
  { code: 'allowed-tools-invalid', bad: clean('allowed-tools:\n  - Read\n  - Bash\n'), good: clean('allowed-tools: Read Bash\n') },
  { code: 'field-unknown', bad: clean('color: blue\n'), good: clean() },
  { code: 'body-empty', bad: clean('', ''), good: clean() },
  { code: 'body-too-long', bad: clean('', 'line\n'.repeat(501)), good: clean('', 'line\n'.repeat(499)) },
  {
    code: 'reference-broken',
    bad: body('See [the API](references/api.md) and run `python scripts/run.py`.\n', { 'references/api.md': '# API\n' }),
    good: body('See [the API](references/api.md) and run `python scripts/run.py`.\n', {
      'references/api.md': '# API\n',
      'scripts/run.py': 'print(1)\n',
    }),
  },
  {
    code: 'reference-escapes',
    bad: body('See [shared](../shared/notes.md).\n'),
    good: body('See [notes](notes.md).\n', { 'notes.md': 'n\n' }),
  },
  {
    code: 'reference-absolute',
    bad: body('See [hosts](/etc/hosts) and scripts\\run.py.\n'),
    good: body('See [notes](./notes.md).\n', { 'notes.md': 'n\n' }),
  },
  {
    code: 'reference-too-deep',
    bad: body('Read [a](references/a.md).\n', { 'references/a.md': 'Then read [b](b.md).\n', 'references/b.md': 'b\n' }),
    good: body('Read [a](references/a.md) and [b](references/b.md).\n', {
      'references/a.md': 'Then read [b](b.md), back to [SKILL](../SKILL.md).\n',
      'references/b.md': 'b\n',
    }),
  },
  {
    code: 'symlink-escapes',
    bad: { files: { 'SKILL.md': skillText(), data: { link: '/etc' } } },
    good: { files: { 'SKILL.md': skillText(), 'notes.md': 'n\n', 'alias.md': { link: 'notes.md' }, 'sub/up.md': { link: '../notes.md' } } },
  },
  {
    code: 'legacy-state-path',
    bad: body('Append each result to ~/.demo-notes/log.md.\n'),
    good: body(
      'Write to /tmp/demo.txt, ~/.skilldock/skills-state/demo/log.md or ~/.claude/skills/demo/scripts/x.py; a~/x is not a path.\n',
    ),
  },
  {
    code: 'skill-nested',
    bad: { files: { 'SKILL.md': skillText(), 'inner/SKILL.md': skillText({ name: 'inner' }) } },
    good: { files: { 'SKILL.md': skillText(), 'inner/README.md': 'r\n' } },
  },
  { code: 'skill-dot-dir', bad: { dirName: '.demo', files: { 'SKILL.md': skillText() } }, good: clean() },
  { code: 'skill-file-symlink', bad: { files: { 'real.md': skillText(), 'SKILL.md': { link: 'real.md' } } }, good: clean() },
];

const root = tempRoot();
afterAll(() => removeRoot(root));
let n = 0;

async function lint(f: Fixture) {
  const dir = makeSkill(`${root}/${n++}`, f.dirName ?? 'demo', f.files);
  return analyzeSkill(dir, { resourcesDir: RESOURCES });
}

describe('lint rules: one fixture triggers, one does not', () => {
  it('the clean fixture has no diagnostics at all', async () => {
    const a = await lint(clean());
    expect(a.diagnostics).toEqual([]);
    expect(a.name).toBe('demo');
  });

  for (const c of cases) {
    it(c.code, async () => {
      const bad = await lint(c.bad);
      const hit = bad.diagnostics.filter((d) => d.code === c.code);
      expect(hit.length, JSON.stringify(bad.diagnostics, null, 1)).toBeGreaterThan(0);
      for (const d of hit) {
        expect(d.message.length).toBeGreaterThan(5);
        expect(d.fix).toMatch(/^[A-Z].*\.$/);
        expect(d.file.startsWith(bad.dir)).toBe(true);
      }
      const good = await lint(c.good);
      expect(
        good.diagnostics.filter((d) => d.code === c.code),
        JSON.stringify(good.diagnostics, null, 1),
      ).toEqual([]);
    });
  }
});

describe('lint details', () => {
  it('names the agents from the registry', async () => {
    const agentsOf = async (f: Fixture, code: string) => (await lint(f)).diagnostics.find((d) => d.code === code)?.agents;
    expect(await agentsOf(cases.find((c) => c.code === 'skill-file-symlink')!.bad, 'skill-file-symlink')).toEqual(['codex']);
    expect(await agentsOf({ dirName: '.demo', files: { 'SKILL.md': skillText() } }, 'skill-dot-dir')).toEqual([
      'gemini',
      'codex',
      'opencode',
      'copilot',
    ]);
    expect(await agentsOf(described('x'.repeat(1025)), 'description-too-long')).toEqual(['codex', 'copilot', 'kiro', 'kimi']);
    expect(await agentsOf(raw(`\uFEFF${skillText()}`), 'frontmatter-not-first')).toEqual(['gemini', 'codex']);
    expect(await agentsOf(clean('metadata: x\n'), 'metadata-not-map')).toEqual(['codex']);
    expect(await agentsOf(cases.find((c) => c.code === 'skill-nested')!.bad, 'skill-nested')).toEqual([
      'claude',
      'gemini',
      'qwen',
      'generic',
    ]);
  });

  it('reports known extensions as info with the agents that read them', async () => {
    const a = await lint(clean('when_to_use: When the user asks.\nargument-hint: "[file]"\npriority: 1\n'));
    const byKey = Object.fromEntries(a.diagnostics.map((d) => [d.message.split('`')[1], d]));
    expect(byKey.when_to_use).toMatchObject({ code: 'field-unknown', severity: 'info', agents: ['claude', 'qwen'], line: 4 });
    expect(byKey['argument-hint']).toMatchObject({ severity: 'info', agents: ['claude'] });
    expect(byKey.priority).toMatchObject({ severity: 'info' });
    const unknown = await lint(clean('colour: blue\n'));
    expect(unknown.diagnostics[0]).toMatchObject({ code: 'field-unknown', severity: 'warning', line: 4 });
  });

  it('counts a description in UTF-16 units for the agents that do (1,024 emoji: in the spec, over for Copilot CLI)', async () => {
    const a = await lint(described(emoji.repeat(1024)));
    const d = a.diagnostics.filter((x) => x.code === 'description-too-long');
    expect(d).toMatchObject([{ severity: 'error', agents: ['copilot'], msg: { key: 'diag.description-too-long.units' } }]);
    expect(d[0]!.message).toContain('2048 UTF-16 units');
    expect(d[0]!.fixMsg).toEqual({ key: 'diag.description-too-long.fix-units' });
  });

  it('an unquoted `: ` in a value is an error for the agents whose parser refuses it, with the fix to quote it', async () => {
    const a = await lint(described('Use when: the user asks.'));
    const d = a.diagnostics.find((x) => x.code === 'frontmatter-strict')!;
    expect(d).toMatchObject({ severity: 'error', agents: ['copilot'], fixMsg: { key: 'diag.frontmatter-strict.fix-colon' } });
    expect(d.fix).toContain('"Use when: the user asks"');
    // Any other strictness finding stays a warning that names no agent.
    const tab = (await lint(clean('color:\tblue\n'))).diagnostics.find((x) => x.code === 'frontmatter-strict');
    expect(tab?.severity ?? 'warning').toBe('warning');
  });

  it('disable-model-invocation: said per agent that hides the skill from its listing, never as an unknown field', async () => {
    const on = await lint(clean('disable-model-invocation: true\n'));
    expect(on.diagnostics.map((d) => d.code)).toEqual(['model-invocation-disabled']);
    expect(on.diagnostics[0]).toMatchObject({ severity: 'info', agents: ['claude', 'qwen', 'copilot'], line: 4 });
    // Claude Code and Copilot CLI also read `yes` (any case); Qwen Code only `true`.
    const yes = await lint(clean('disable-model-invocation: "Yes"\n'));
    expect(yes.diagnostics[0]).toMatchObject({ code: 'model-invocation-disabled', agents: ['claude', 'copilot'] });
    // Set to false it hides nothing: a known extension, as before.
    const off = await lint(clean('disable-model-invocation: false\n'));
    expect(off.diagnostics).toMatchObject([{ code: 'field-unknown', severity: 'info' }]);
  });

  it('says which name rule is broken', async () => {
    const msg = async (name: string) => (await lint(named(name))).diagnostics.find((d) => d.code === 'name-invalid')?.message ?? '';
    expect(await msg('-demo')).toContain('leading hyphen');
    expect(await msg('demo-')).toContain('trailing hyphen');
    expect(await msg('de--mo')).toContain('--');
    expect(await msg('Demo')).toContain('upper-case');
    expect(await msg('de_mo')).toContain('"_"');
  });

  it('points diagnostics at file lines', async () => {
    const a = await lint(raw('---\nname: demo\ndescription: Demo skill.\nlicense: 3\n---\nLine one.\nSee [x](missing.md).\n'));
    expect(a.diagnostics.find((d) => d.code === 'license-invalid')?.line).toBe(4);
    expect(a.diagnostics.find((d) => d.code === 'reference-broken')).toMatchObject({ line: 7, column: 9 });
    expect(a.bodyLine).toBe(6);
  });

  it('keeps the legacy paths with their redirects on the record', async () => {
    const a = await lint({
      files: {
        'SKILL.md': skillText({
          fm: 'metadata:\n  version: "1.0.4"\n',
          body: 'Run mkdir -p ~/.demo and keep $HOME/.demo-cache/index.json and ${HOME}/notes.txt.\n',
        }),
      },
    });
    expect(a.stateId).toBe('demo-1.0.4');
    expect(a.legacyPaths).toEqual([
      { path: '~/.demo/', line: 7, redirect: '~/.skilldock/skills-state/demo-1.0.4/' },
      { path: '~/.demo-cache/index.json', line: 7, redirect: '~/.skilldock/skills-state/demo-1.0.4/index.json' },
      { path: '~/notes.txt', line: 7, redirect: '~/.skilldock/skills-state/demo-1.0.4/notes.txt' },
    ]);
    const d = a.diagnostics.filter((x) => x.code === 'legacy-state-path');
    expect(d).toHaveLength(3);
    expect(d[1]).toMatchObject({ line: 7, column: 31 });
    expect(d[1].message).toContain('~/.demo-cache/index.json');
    expect(d[1].message).toContain('~/.skilldock/skills-state/demo-1.0.4/index.json');
  });
});
