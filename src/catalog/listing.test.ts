import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../agents/registry.js';
import { resources } from '../../test/support/workspaces.js';
import { allocateListing, environmentLocale, labelCollator, listSkill, type ListingModel } from './listing.js';
import { englishTemplate } from '../contract/messages-text.js';

// The listing model on its own (the real CLI's capture is e2e/agents/listing.test.ts).
const claude = loadRegistry(resources).agents.find((a) => a.id === 'claude')!.listing!;

describe('listSkill (Claude Code model)', () => {
  it('shows the folder, and the name in brackets when it differs', () => {
    expect(listSkill(claude, 'a', '---\nname: a\ndescription: x\n---\n').label).toBe('a');
    expect(listSkill(claude, 'a', '---\nname: b\ndescription: x\n---\n').label).toBe('a (b)');
  });
  it('joins when_to_use, collapses whitespace, escapes angle brackets', () => {
    const l = listSkill(claude, 'a', '---\nname: a\ndescription: |\n  one\n  two <b>\nwhen_to_use: later\n---\n');
    expect(l.description).toBe('one two &lt;b&gt; - later');
  });
  it('falls back to the first body line without heading marks, and to a placeholder for an empty file', () => {
    expect(listSkill(claude, 'a', '\n\n# Title here\ntext').description).toBe('Title here');
    expect(listSkill(claude, 'a', '\n---\nname: a\ndescription: x\n---\n').description).toBe('---');
    expect(listSkill(claude, 'a', '').description).toBe('Skill');
    expect(listSkill(claude, 'a', '---\nname: a\ndescription: [broken\n---\nbody').description).toBe('[broken');
  });
  it('cuts at the cap with the marker counted in', () => {
    const l = listSkill(claude, 'a', `---\nname: a\ndescription: ${'x'.repeat(2000)}\n---\n`);
    expect(l.capped).toBe(true);
    expect(l.description.length).toBe(1536);
    expect(l.description.endsWith('\u2026')).toBe(true);
  });
});

describe('allocateListing', () => {
  const model: ListingModel = {
    ...claude,
    budget: { chars: 100, overflow: 'name-only', width: 'utf16' },
    builtins: [
      { name: 'fix', descriptionChars: 10, fixed: true },
      { name: 'own', descriptionChars: 10, fixed: false },
    ],
  };
  const skill = (label: string, n: number) => ({ label, description: 'd'.repeat(n), capped: false, fallback: false });
  it('keeps everything in full under the budget', () => {
    expect(allocateListing(model, [skill('a', 5)])).toEqual({ skills: ['full'], builtins: ['full', 'full'] });
  });
  it('over the budget: fixed built-ins stay, later shorter skills still fit, unfixed built-ins compete last', () => {
    // names: "- a"(3) "- b"(3) "- c"(3) "- fix"(5) "- own"(5) + 4 line breaks = 23; fixed adds 12 -> 35
    const r = allocateListing(model, [skill('a', 50), skill('b', 60), skill('c', 8)]);
    // a: 35+52=87 fits; b: +62 no; c: +10 = 97 fits; own: +12 = 109 no
    expect(r).toEqual({ skills: ['full', 'name-only', 'full'], builtins: ['full', 'name-only'] });
  });
});

describe('Qwen Code and Gemini CLI text rules (measured: e2e/agents/listing-text-order.test.ts)', () => {
  const agents = loadRegistry(resources).agents;
  const qwen = agents.find((a) => a.id === 'qwen')!.listing!;
  const gemini = agents.find((a) => a.id === 'gemini')!.listing!;
  const text = '---\nname: a\ndescription: |\n  One <b>.\n  Two.\nwhen_to_use: " Later. "\n---\n';
  it('Qwen: the description as written, when_to_use after an em dash, escaped; its first line kept for the budget', () => {
    const l = listSkill(qwen, 'a', text, 'project');
    expect(l.description).toBe('One &lt;b&gt;.\nTwo.\n \u2014  Later.  (project)');
    expect(l.firstLine).toBe('One &lt;b&gt;. (project)');
  });
  it('Qwen: first lines only once the rendered block, its own skills counted in, passes the budget', () => {
    const own = qwen.builtins.reduce(
      (n, b) =>
        n +
        `<skill>\n<name>\n${b.name}\n</name>\n<description>\n\n</description>\n<location>\nbundled\n</location>\n</skill>`.length +
        b.descriptionChars +
        1,
      0,
    );
    const skill = (n: number) => ({ ...listSkill(qwen, 'a', text), label: 'a', description: 'x'.repeat(n), scope: 'user' as const });
    const entry = (n: number) =>
      `<skill>\n<name>\na\n</name>\n<description>\n${'x'.repeat(n)}\n</description>\n<location>\nuser\n</location>\n</skill>`.length;
    const fits = 8000 - own - entry(0);
    expect(allocateListing(qwen, [skill(fits)])).toMatchObject({ skills: ['full'], used: 8000 });
    const over = allocateListing(qwen, [skill(fits + 1)]);
    expect(over).toMatchObject({ skills: ['shortened'], used: 8001, texts: ['One &lt;b&gt;. (user)'] });
  });
  it('Gemini: runs of three or more line breaks are sent as two', () => {
    const l = listSkill(gemini, 'a', '---\nname: a\ndescription: |+\n  One.\n\n\n\n  Two.\n\n\nlicense: x\n---\n');
    expect(l.description).toBe('One.\n\nTwo.\n\n');
  });
  it('every listing order has its words, and the locale comes from LC_ALL, then LC_MESSAGES, then LANG', () => {
    for (const order of [
      'label',
      'scope-then-label',
      'user-scope-then-label',
      'builtins-then-scope-then-label',
      'locale',
      'root-collation',
      'unstable',
    ] as const)
      expect(englishTemplate(`agent.order.${order}`)).toBeDefined();
    expect(environmentLocale({ LANG: 'sv_SE.UTF-8', LC_MESSAGES: 'de_DE.UTF-8' })).toBe('de-DE');
    expect(environmentLocale({ LANG: 'sv_SE.UTF-8', LC_ALL: 'ja_JP.UTF-8' })).toBe('ja-JP');
    expect(environmentLocale({ LANG: 'C.UTF-8' })).toBe('en-US');
    expect(environmentLocale({})).toBeUndefined();
    const sorted = (order: ListingModel['order'], env: NodeJS.ProcessEnv) => ['zeta', 'ägypten', 'Beta'].sort(labelCollator(order, env)!);
    expect(sorted('locale', { LANG: 'sv_SE.UTF-8' })).toEqual(['Beta', 'zeta', 'ägypten']);
    expect(sorted('root-collation', { LANG: 'sv_SE.UTF-8' })).toEqual(['ägypten', 'Beta', 'zeta']);
    expect(labelCollator('label')).toBeNull();
  });
});

describe('issue 25: how Claude Code, Codex and Copilot CLI count (measured in e2e/agents/listing.test.ts)', () => {
  const registry = loadRegistry(resources).agents;
  const codex = registry.find((a) => a.id === 'codex')!.listing!;
  const copilot = registry.find((a) => a.id === 'copilot')!.listing!;
  const qwen = registry.find((a) => a.id === 'qwen')!.listing!;
  const md = (description: string, extra = '') => `---\nname: a\ndescription: ${description}\n${extra}---\n`;

  it('Codex cuts at 1,024 code points: 1,024 with emoji (1,126 UTF-16 units) go whole, 1,025 are cut', () => {
    const astral = Array.from({ length: 1024 }, (_, i) => (i % 10 === 9 ? '\u{1F389}' : 'x')).join('');
    expect([astral.length, [...astral].length]).toEqual([1126, 1024]);
    expect(listSkill(codex, 'a', md(astral))).toMatchObject({ capped: false, description: astral });
    const over = listSkill(codex, 'a', md(astral + 'x'));
    expect([...over.description].length).toBe(1024);
    expect(over.description.endsWith('...')).toBe(true);
  });

  it('disable-model-invocation hides the skill by each agent’s own rule', () => {
    const hidden = (model: ListingModel, v: string) => listSkill(model, 'a', md('x', `disable-model-invocation: ${v}\n`)).hidden ?? false;
    expect([true, 'Yes', 'on', '1', 'false'].map((v) => hidden(claude, String(v)))).toEqual([true, true, true, true, false]);
    expect(['true', '"true"', 'yes'].map((v) => hidden(qwen, v))).toEqual([true, true, false]);
    expect(hidden(copilot, 'Yes')).toBe(true);
    expect(hidden(codex, 'true')).toBe(false);
  });

  it('Claude Code counts its budget in columns: a CJK character takes two', () => {
    const wide = { label: 'w', description: '日本語'.repeat(10), capped: false, fallback: false };
    const m: ListingModel = { ...claude, budget: { chars: 40, overflow: 'name-only', width: 'display' }, builtins: [] };
    // "- w: " + 30 characters: 35 UTF-16 units fit in 40; 65 columns do not.
    expect(allocateListing(m, [wide]).skills).toEqual(['name-only']);
    expect(allocateListing({ ...m, budget: { ...m.budget!, width: 'utf16' } }, [wide]).skills).toEqual(['full']);
  });

  it('Codex takes the root alias table off its token budget once it is over 143 bytes', () => {
    const skills = Array.from({ length: 20 }, (_, i) => ({
      label: `s${i}`,
      description: 'x'.repeat(3000),
      capped: false,
      fallback: false,
      scope: 'user' as const,
      path: `s${i}/SKILL.md`,
    }));
    const kept = (roots: string[]) => allocateListing(codex, skills, roots).kept!.reduce((a, b) => a + b, 0);
    const short = ['/h/.agents/skills', '/h/.codex/skills/.system'];
    const long = short.map((r) => `/a-home-folder-whose-name-is-long-enough-to-cost-tokens${r}`);
    expect(kept(short)).toBe(kept([]));
    // Two root lines of 84 and 91 bytes: (175 - 143) / 4 rounded up = 8 tokens, 32 characters fewer.
    expect(kept(short) - kept(long)).toBe(32);
  });
});
