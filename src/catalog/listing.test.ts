import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../agents/registry.js';
import { resources } from '../../test/support/workspaces.js';
import { allocateListing, listSkill, type ListingModel } from './listing.js';

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
