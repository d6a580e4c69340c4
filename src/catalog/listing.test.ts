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
    budget: { chars: 100, overflow: 'name-only' },
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
    for (const order of ['label', 'scope-then-label', 'builtins-then-scope-then-label', 'locale', 'root-collation', 'unstable'] as const)
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
