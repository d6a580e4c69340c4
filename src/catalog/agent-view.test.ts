import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogFor, sandbox, writeSkill, type Sandbox } from '../../test/support/catalog.js';

let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(async () => {
  await sb.cleanup();
});

const user = (rel: string) => path.join(sb.paths.userHome, rel);
const proj = () => path.join(sb.base, 'proj');

describe('agentView', () => {
  it('reads only the roots the registry gives the agent, in its order', async () => {
    writeSkill(path.join(sb.paths.home, 'library', 'lib-only'));
    writeSkill(path.join(user('.claude/skills'), 'c1'));
    writeSkill(path.join(user('.agents/skills'), 'a1'));
    const svc = catalogFor(sb);
    const claude = await svc.agentView('claude', { project: proj() });
    expect(claude.roots.map((r) => r.id)).toEqual(['user:.claude/skills', 'project:.claude/skills']);
    expect(claude.skills.map((s) => s.identifier)).toEqual(['c1']);
    const gemini = await svc.agentView('gemini', { project: proj() });
    expect(gemini.roots.map((r) => r.id)).toEqual([
      'user:.gemini/skills',
      'user:.agents/skills',
      'project:.gemini/skills',
      'project:.agents/skills',
    ]);
    expect(gemini.skills.map((s) => s.identifier)).toEqual(['a1']);
    await expect(svc.agentView('nobody')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('says which agents the write guard hook covers, and where (registry writeGuard)', async () => {
    const svc = catalogFor(sb);
    const guard = async (id: string) => (await svc.agentView(id)).guard;
    // Claude Code: a hook everywhere (--settings loads it for a user's project too)
    expect(await guard('claude')).toBe('hook');
    // Gemini CLI: a hook in a temporary workspace; in a user's project only the rules
    expect(await guard('gemini')).toBe('hook-temporary');
    // Qwen Code: a hook everywhere (its system-defaults file, named by a variable, for a user's project)
    expect(await guard('qwen')).toBe('hook');
    expect(await guard('copilot')).toBe('hook-temporary');
    // Codex: a hook everywhere, given (with Codex's trust in it) as -c arguments
    expect(await guard('codex')).toBe('hook');
    expect(await guard('generic')).toBe('rules');
  });

  it("says what holds each agent's unapproved scripts and SkillDock's own files, as measured (registry sandbox)", async () => {
    const svc = catalogFor(sb);
    const of = async (id: string) => {
      const v = await svc.agentView(id);
      return [v.scriptGuard, v.homeGuard];
    };
    // Claude Code: its sandbox hides the library copy and keeps SkillDock's home unwritable
    expect(await of('claude')).toEqual(['guarded', 'sandbox']);
    // Codex: its sandbox keeps the home unwritable but cannot hide a folder from reads
    expect(await of('codex')).toEqual(['hook', 'sandbox']);
    for (const id of ['gemini', 'qwen', 'copilot']) expect(await of(id), id).toEqual(['hook', 'seal']);
    // OpenCode runs no hook: the block is advisory
    expect(await of('opencode')).toEqual(['advisory', 'seal']);
  });

  it('drops what each loader drops: dot-dirs for gemini, a symlinked SKILL.md for codex, a long description', async () => {
    writeSkill(path.join(user('.agents/skills'), '.dotted'), { name: 'dotted' });
    const real = writeSkill(path.join(sb.base, 'store', 'linkfile'));
    fs.mkdirSync(path.join(user('.agents/skills'), 'linkfile'), { recursive: true });
    fs.symlinkSync(path.join(real, 'SKILL.md'), path.join(user('.agents/skills'), 'linkfile', 'SKILL.md'));
    writeSkill(path.join(user('.agents/skills'), 'wordy'), { description: 'x'.repeat(1100) });
    const svc = catalogFor(sb);

    const gemini = await svc.agentView('gemini');
    const g = (id: string) => gemini.skills.find((s) => s.identifier === id)!;
    expect(g('dotted').status).toBe('dropped');
    expect(g('dotted').reasons.map((r) => r.code)).toContain('skill-dot-dir');
    expect(g('linkfile').status).toBe('loaded');
    expect(g('wordy').status).toBe('loaded'); // gemini keeps long descriptions

    const codex = await svc.agentView('codex');
    const c = (id: string) => codex.skills.find((s) => s.identifier === id)!;
    expect(c('dotted').status).toBe('dropped');
    expect(c('linkfile').status).toBe('dropped');
    expect(c('linkfile').reasons.map((r) => r.code)).toContain('skill-file-symlink');
    expect(c('wordy').status).toBe('mangled'); // codex cuts it to 1024
    // Measured from Codex's own request: the line as listed, the description cut to 1,021 + '...'.
    expect(c('wordy').listing).toMatchObject({ shown: 'shortened', chars: 1024, measured: true });
    expect(c('wordy').listing.description!.endsWith('...')).toBe(true);
    expect(c('wordy').catalogChars).toBe('- wordy: '.length + 1024 + 1);

    const qwen = await svc.agentView('qwen');
    expect(qwen.skills.find((s) => s.identifier === 'dotted')!.status).toBe('loaded');
    expect(qwen.counts.dropped).toBe(0);
  });

  it('applies each agent’s own rule for a name found twice', async () => {
    writeSkill(path.join(user('.claude/skills'), 'tool'), { description: 'user claude' });
    writeSkill(path.join(proj(), '.claude/skills', 'tool'), { description: 'project claude' });
    writeSkill(path.join(user('.qwen/skills'), 'tool'), { description: 'user qwen' });
    writeSkill(path.join(proj(), '.qwen/skills', 'tool'), { description: 'project qwen' });
    writeSkill(path.join(user('.agents/skills'), 'tool'), { description: 'user agents' });
    writeSkill(path.join(user('.codex/skills'), 'tool'), { description: 'user codex' });
    const svc = catalogFor(sb);
    const q = { project: proj() };

    const claude = await svc.agentView('claude', q); // user copy beats project copy
    expect(claude.skills.map((s) => [s.entryId, s.status])).toEqual([
      ['user:.claude/skills/tool', 'loaded'],
      ['project:.claude/skills/tool', 'shadowed'],
    ]);
    expect(claude.skills[1].shadowedBy).toBe('user:.claude/skills/tool');

    const qwen = await svc.agentView('qwen', q); // project wins
    const winner = qwen.skills.filter((s) => s.status === 'loaded');
    expect(winner.map((s) => s.entryId)).toEqual(['project:.qwen/skills/tool']);
    expect(qwen.skills.filter((s) => s.status === 'shadowed')).toHaveLength(2);
    expect(qwen.duplicates).toEqual([
      {
        identifier: 'tool',
        entryIds: expect.arrayContaining(['user:.qwen/skills/tool', 'project:.qwen/skills/tool', 'user:.agents/skills/tool']),
      },
    ]);

    const codex = await svc.agentView('codex', q); // all listed
    expect(codex.skills.map((s) => [s.entryId, s.status])).toEqual([
      ['user:.codex/skills/tool', 'loaded'],
      ['user:.agents/skills/tool', 'loaded'],
    ]);
    expect(codex.duplicates).toHaveLength(1);

    const opencode = await svc.agentView('opencode', q); // random winner
    expect(opencode.skills.every((s) => s.status === 'ambiguous')).toBe(true);
    // an ambiguous identifier costs the catalog once
    expect(opencode.skills.filter((s) => s.catalogChars > 0)).toHaveLength(1);
  });

  it('sums the resident catalog against the agent’s budget and names the costliest skills', async () => {
    for (let i = 0; i < 10; i++) {
      writeSkill(path.join(user('.claude/skills'), `s${i}`), { description: 'd'.repeat(100 * (i + 1)) });
    }
    const v = await catalogFor(sb).agentView('claude');
    // Claude Code's listing is measured: each skill costs its line `- sN: <description>` and a line break.
    const expected = Array.from({ length: 10 }, (_, i) => '- sN: '.length + 100 * (i + 1) + 1).reduce((a, b) => a + b, 0);
    expect(v.budget.used).toBe(expected);
    expect(v.budget.limit).toBe(23789);
    expect(v.budget.over).toBe(false);
    expect(v.budget.costliest.map((c) => c.identifier)).toEqual(['s9', 's8', 's7', 's6', 's5']);
    expect(v.budget.overflow).toMatch(/name only/);
    expect(v.skills.every((s) => s.listing.shown === 'full' && s.listing.measured)).toBe(true);

    const gemini = await catalogFor(sb).agentView('gemini');
    expect(gemini.budget.limit).toBeNull();
    expect(gemini.budget.over).toBe(false);
  });

  it('lists nested skills and whether the agent finds them', async () => {
    writeSkill(path.join(user('.agents/skills'), 'group', 'inner'));
    const svc = catalogFor(sb);
    expect((await svc.agentView('codex')).nested).toEqual([
      { dir: path.join(user('.agents/skills'), 'group', 'inner'), rootId: 'user:.agents/skills', found: true },
    ]);
    expect((await svc.agentView('qwen')).nested[0].found).toBe(false);
  });

  it("places each listed skill in the agent's measured order, and none where that order changes between runs", async () => {
    for (const name of ['PDF-Tools', 'alpha', 'beta']) writeSkill(path.join(user('.agents/skills'), name));
    writeSkill(path.join(user('.agents/skills'), 'long'), { description: 'One line.\nTwo.', extra: 'when_to_use: Later.' });
    const svc = catalogFor(sb);
    const placed = (v: Awaited<ReturnType<typeof svc.agentView>>) =>
      v.skills.map((s) => [s.listing.label, s.listing.position]).sort((a, b) => Number(a[1]) - Number(b[1]));
    // Qwen Code sorts with localeCompare (PDF-Tools among the small letters); Codex code point by code point.
    const qwen = await svc.agentView('qwen');
    expect(placed(qwen).map((p) => p[0])).toEqual(['alpha', 'beta', 'long', 'PDF-Tools']);
    expect(qwen.listingOrder).toMatchObject({ stable: true });
    expect(placed(await svc.agentView('codex')).map((p) => p[0])).toEqual(['PDF-Tools', 'alpha', 'beta', 'long']);
    const gemini = await svc.agentView('gemini');
    expect(gemini.skills.map((s) => s.listing.position)).toEqual([null, null, null, null]);
    expect(gemini.listingOrder).toMatchObject({ stable: false, msg: { key: 'agent.order.unstable' } });
    // Under Qwen Code's 8,000 characters the description goes as written, when_to_use after an em dash.
    expect(qwen.skills.find((s) => s.listing.label === 'long')!.listing.description).toBe('One line.\nTwo. \u2014 Later. (user)');
    expect(qwen.budget).toMatchObject({ limit: 8000, over: false });
  });
});
