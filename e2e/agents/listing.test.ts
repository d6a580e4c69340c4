import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createService, type SkillDockService } from '../../src/service.js';
import { loadRegistry } from '../../src/agents/registry.js';
import { allocateListing, listSkill } from '../../src/catalog/listing.js';
import { resources, sandbox, type Sandbox } from '../../test/support/workspaces.js';
import { captureClaude, captureCodex, captureCopilot, captureGemini, captureOpenCode, captureQwen } from './capture.js';
import { VARIANTS, budgetSet, mixedBudgetSet, writeVariants, type Variant } from './variants.js';
import { requireAgent, type Pin } from './pins.js';
import { compare, measuredCase as measuredFor, mismatches } from './listing-case.js';

// SkillDock's prediction of what each agent's model is shown, against what the pinned CLI really
// sends: the CLI runs once against a loopback server that records its model request, and the
// listing is read out of that request. Any difference fails with the whole table.

let sb: Sandbox;
let svc: SkillDockService;
beforeEach(() => {
  sb = sandbox();
  svc = createService({ paths: { home: sb.home, userHome: sb.userHome, resourcesDir: resources } });
});
afterEach(async () => {
  await svc.close();
  sb.done();
});

async function claudeCase(variants: Variant[]) {
  const bin = requireAgent('claude');
  const root = path.join(sb.userHome, '.claude', 'skills');
  writeVariants(root, path.join(sb.dir, 'outside'), variants);
  const cwd = path.join(sb.dir, 'cwd');
  fs.mkdirSync(cwd);
  const view = await svc.api.agentView({ agent: 'claude' });
  const captured = await captureClaude(bin, { cwd, home: sb.userHome });
  const model = loadRegistry(resources).agents.find((a) => a.id === 'claude')!.listing!;
  // The CLI's own skills are listed after the user's, in the registry's order with the recorded lengths.
  const names = model.builtins.map((b) => b.name);
  const own = captured.filter((c) => names.includes(c.name));
  expect(own.map((c) => c.name)).toEqual(names);
  for (const c of own)
    if (c.description !== null)
      expect([c.name, [...c.description].length]).toEqual([c.name, model.builtins.find((b) => b.name === c.name)!.descriptionChars]);
  const rows = compare(view, root, captured, names);
  // The agent's own skills lose their description under the budget exactly as the model says.
  const ours = view.skills.filter((s) => s.listing.shown !== 'hidden' && s.dir.startsWith(root + path.sep));
  // In Claude Code's order: by folder name, as localeCompare sorts.
  ours.sort((a, b) => path.basename(a.dir).localeCompare(path.basename(b.dir)));
  const listed = ours.map((s) => listSkill(model, path.basename(s.dir), fs.readFileSync(path.join(s.dir, 'SKILL.md'), 'utf8')));
  const expectOwn = allocateListing(model, listed).builtins;
  expect(own.map((c) => (c.description === null ? 'name-only' : 'full'))).toEqual(expectOwn);
  return { rows, view, captured };
}

/**
 * Skills in the user's folder and in a workspace's (`cwd`, named `cwdName`), both read by `agent`:
 * prediction (the view of that project) against capture, one row per label under the scratch dir.
 */
async function twoScopeCase(
  agent: Pin['id'],
  dirs: { user: string; project: string },
  capture: typeof captureCodex,
  sets: { user: Variant[]; project: Variant[] },
  cwdName = 'cwd',
) {
  const cwd = path.join(sb.dir, cwdName);
  writeVariants(path.join(sb.userHome, dirs.user), path.join(sb.dir, 'outside'), sets.user);
  writeVariants(path.join(cwd, dirs.project), path.join(sb.dir, 'outside'), sets.project);
  const view = await svc.api.agentView({ agent, project: cwd });
  const captured = await capture(requireAgent(agent), { cwd, home: sb.userHome });
  const names = loadRegistry(resources)
    .agents.find((a) => a.id === agent)!
    .listing!.builtins.map((b) => b.name);
  return { rows: compare(view, sb.dir, captured, names), view, captured };
}

describe('Claude Code 2.1.332: the listing its model receives is the one SkillDock predicts', () => {
  it(`${VARIANTS.length} skill variants: each listed, shortened, by name only or left out exactly as predicted`, async () => {
    const { rows } = await claudeCase(VARIANTS);
    expect(mismatches(rows)).toBe('');
    // The variants really cover the cases: some left out, some cut, some from the body.
    expect(rows.filter((r) => r.captured === 'absent').map((r) => r.label)).toEqual(
      expect.arrayContaining(['lowercase-file', 'model-disabled']),
    );
    for (const dir of ['no-skill-file', 'group', 'inner']) expect(rows.map((r) => r.label)).not.toContain(dir);
    expect(rows.filter((r) => r.captured.endsWith('\u2026')).length).toBeGreaterThanOrEqual(2);
    expect(rows.length).toBeGreaterThanOrEqual(VARIANTS.length - 2);
  });

  it('12 skills with 1,000-character descriptions: all in full', async () => {
    const { rows, view } = await claudeCase(budgetSet('twelve', 12, 1000));
    expect(mismatches(rows)).toBe('');
    expect(rows.filter((r) => r.captured.startsWith('full:')).length).toBe(12);
    expect(view.budget.over).toBe(false);
  });

  it('60 skills with 1,000-character descriptions: the first ones in full, the rest by name only, as predicted', async () => {
    const { rows, view } = await claudeCase([...budgetSet('long', 60, 1000), ...budgetSet('short', 5, 40)]);
    expect(mismatches(rows)).toBe('');
    const full = rows.filter((r) => r.captured.startsWith('full:')).map((r) => r.label);
    const nameOnly = rows.filter((r) => r.captured === 'name only').map((r) => r.label);
    expect(nameOnly.length).toBeGreaterThan(20);
    // Past the budget, a later short description still fits: the budget is not a cut-off point.
    expect(full).toEqual(expect.arrayContaining(['short01', 'short05']));
    expect(view.budget.over).toBe(true);
    const s = view.skills.find((x) => x.listing.label === nameOnly[0])!;
    expect(s.reasons.map((r) => r.code)).toContain('listed-name-only');
  });

  it("40 skills of 700 characters and 8 short ones: short ones still fit, and Claude Code's unfixed own skills lose their description", async () => {
    const { rows, captured } = await claudeCase([...budgetSet('mid', 40, 700), ...budgetSet('tiny', 8, 40)]);
    expect(mismatches(rows)).toBe('');
    expect(rows.filter((r) => r.label.startsWith('tiny') && r.captured.startsWith('full:')).length).toBeGreaterThan(3);
    expect(
      captured.filter((c) => c.description === null && !c.name.startsWith('mid') && !c.name.startsWith('tiny')).length,
    ).toBeGreaterThan(0);
  });

  it('80 long descriptions, every fifth mostly CJK: the budget counts display width (a CJK character is two columns)', async () => {
    const { rows, view } = await claudeCase(mixedBudgetSet('wide', 80, 700));
    expect(mismatches(rows)).toBe('');
    expect(view.budget.over).toBe(true);
    // Counted in UTF-16 units the same listing would keep more descriptions than Claude Code does.
    const model = loadRegistry(resources).agents.find((a) => a.id === 'claude')!.listing!;
    const listed = view.skills
      .filter((s) => s.listing.shown !== 'hidden')
      .map((s) => ({
        ...listSkill(model, path.basename(s.dir), fs.readFileSync(path.join(s.dir, 'SKILL.md'), 'utf8')),
      }));
    listed.sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
    const full = (width: 'utf16' | 'display') =>
      allocateListing({ ...model, budget: { ...model.budget!, width } }, listed).skills.filter((x) => x === 'full').length;
    expect(full('utf16')).toBeGreaterThan(full('display'));
    expect(rows.filter((r) => r.captured.startsWith('full:')).length).toBe(full('display'));
  });

  it("30 + 30 long descriptions: the user's folder is listed before the workspace's, so the workspace's lose theirs first", async () => {
    const { rows, captured } = await twoScopeCase('claude', { user: '.claude/skills', project: '.claude/skills' }, captureClaude, {
      user: budgetSet('user', 30, 1000),
      project: budgetSet('proj', 30, 1000),
    });
    expect(mismatches(rows)).toBe('');
    const order = captured.map((c) => c.name);
    expect(order.indexOf('user30')).toBeLessThan(order.indexOf('proj01'));
    expect(rows.find((r) => r.label === 'user01')!.captured.startsWith('full:')).toBe(true);
    expect(rows.find((r) => r.label === 'proj30')!.captured).toBe('name only');
  });

  it('15 + 15 long descriptions, half in upper-case folders: each folder sorted as localeCompare does, not by code point', async () => {
    const { rows, captured } = await claudeCase([...budgetSet('Upper', 15, 1000), ...budgetSet('lower', 15, 1000)]);
    expect(mismatches(rows)).toBe('');
    const order = captured.map((c) => c.name);
    expect(order.indexOf('lower15')).toBeLessThan(order.indexOf('Upper01'));
    expect(rows.find((r) => r.label === 'Upper15')!.captured).toBe('name only');
  });
});

/** An agent whose listing is read from its captured request (see listing-case.ts). */
const measuredCase = (agent: Pin['id'], rootRel: string, capture: typeof captureCodex, variants: Variant[]) =>
  measuredFor({ sb, svc }, agent, rootRel, capture, variants);

const copilotCase = (variants: Variant[]) => measuredCase('copilot', '.copilot/skills', captureCopilot, variants);

describe('GitHub Copilot CLI 1.0.102: the listing its model receives is the one SkillDock predicts', () => {
  it(`${VARIANTS.length} skill variants: each listed or left out exactly as predicted, descriptions as sent`, async () => {
    const { rows, own, model, nested } = await copilotCase(VARIANTS);
    expect(mismatches(rows)).toBe('');
    const absent = rows.filter((r) => r.captured === 'absent').map((r) => r.label);
    // Copilot drops what Claude Code words from the body, and refuses descriptions over 1,024 characters.
    expect(absent).toEqual(expect.arrayContaining(['no-frontmatter', 'desc-1025', 'blank-line-first', 'lowercase-file']));
    // Its strict YAML parser refuses an unquoted `: `; it counts UTF-16 units (1,024 code points with
    // emoji are over); `disable-model-invocation: true` keeps a skill from its model.
    expect(absent).toEqual(expect.arrayContaining(['colon-value', 'astral-1024', 'model-disabled', 'model-disabled-yes']));
    expect(rows.find((r) => r.label === 'desc-1024')!.captured.startsWith('full:')).toBe(true);
    expect(nested).toEqual([{ name: 'inner', found: true }]);
    // Its own skills follow the user's, in the registry's order and with the recorded lengths.
    expect(own.map((c) => [c.name, c.description!.length])).toEqual(model.builtins.map((b) => [b.name, b.descriptionChars]));
  });

  it('12 skills with 1,000-character descriptions: all in full', async () => {
    const { rows, view, own } = await copilotCase(budgetSet('twelve', 12, 1000));
    expect(mismatches(rows)).toBe('');
    expect(rows.filter((r) => r.captured.startsWith('full:')).length).toBe(12);
    expect(own.length).toBe(2);
    expect(view.budget.over).toBe(false);
  });

  it('60 skills with 1,000-character descriptions and 5 short ones: the listing stops at its budget, dropping all after', async () => {
    const { rows, view, own } = await copilotCase([...budgetSet('long', 60, 1000), ...budgetSet('short', 5, 40)]);
    expect(mismatches(rows)).toBe('');
    const full = rows.filter((r) => r.captured.startsWith('full:')).map((r) => r.label);
    expect(full.length).toBeGreaterThan(5);
    expect(full.length).toBeLessThan(30);
    // A cut-off point, not a fit: the short ones after it are left out, and so are Copilot's own.
    expect(rows.find((r) => r.label === 'short01')!.captured).toBe('absent');
    expect(own).toEqual([]);
    expect(view.budget.over).toBe(true);
    const s = view.skills.find((x) => x.listing.label === 'short01')!;
    expect(s.reasons.map((r) => r.code)).toContain('listed-left-out');
  });
});

const codexCase = (variants: Variant[]) => measuredCase('codex', '.agents/skills', captureCodex, variants);

describe('Codex 0.171.0: the listing its model receives is the one SkillDock predicts', () => {
  it(`${VARIANTS.length} skill variants: each listed, cut at 1,024 or left out exactly as predicted`, async () => {
    const { rows, own, model } = await codexCase(VARIANTS);
    expect(mismatches(rows)).toBe('');
    expect(rows.find((r) => r.label === 'desc-2000')!.captured.endsWith('...')).toBe(true);
    // It counts code points: 1,024 of them with emoji (over 1,024 UTF-16 units) are sent whole.
    expect([...rows.find((r) => r.label === 'astral-1024')!.captured].length).toBe('full: '.length + 1024);
    // It does not read `disable-model-invocation`, and its parser takes an unquoted `: `.
    expect(rows.find((r) => r.label === 'model-disabled')!.captured).toBe('full: Only a user invokes it.');
    expect(rows.find((r) => r.label === 'colon-value')!.captured).toBe('full: Use when: the user asks for it.');
    // Its own (system) skills come first, in full, with the recorded lengths.
    expect(own.map((c) => [c.name, c.description!.length])).toEqual(model.builtins.map((b) => [b.name, b.descriptionChars]));
  });

  it('12 skills with 1,000-character descriptions: all in full', async () => {
    const { rows, view } = await codexCase(budgetSet('twelve', 12, 1000));
    expect(mismatches(rows)).toBe('');
    expect(rows.filter((r) => r.captured.startsWith('full:')).length).toBe(12);
    expect(view.budget.over).toBe(false);
  });

  it('60 skills with 1,000-character descriptions and 5 short ones: every description cut to its share, exactly as predicted', async () => {
    const { rows, own } = await codexCase([...budgetSet('long', 60, 1000), ...budgetSet('short', 5, 40)]);
    expect(mismatches(rows)).toBe('');
    // None dropped: the long ones are shortened to about 600 characters, the short ones stay whole.
    expect(rows.filter((r) => r.captured === 'absent')).toEqual([]);
    const long01 = rows.find((r) => r.label === 'long01')!.captured;
    expect(long01.length).toBeGreaterThan(500);
    expect(long01.length).toBeLessThan(700);
    expect(rows.find((r) => r.label === 'short01')!.captured.length).toBe('full: '.length + 40);
    expect(own.length).toBe(4);
  });

  it('40 + 40 long descriptions (every fifth mostly CJK) in the home and a long-named workspace: the root table costs its share', async () => {
    const { rows, view } = await twoScopeCase(
      'codex',
      { user: '.agents/skills', project: '.agents/skills' },
      captureCodex,
      { user: mixedBudgetSet('mix', 40, 1000), project: mixedBudgetSet('ws', 40, 1000) },
      // 74 characters: the table's lines come to a multiple of four bytes, where rounding tells 144 from 143.
      'a-workspace-folder-whose-long-name-makes-the-root-alias-table-cost-more-x2',
    );
    expect(mismatches(rows)).toBe('');
    const kept = view.skills.filter((s) => s.listing.shown === 'shortened').length;
    expect(kept).toBe(80);
  });
});

const geminiCase = (variants: Variant[]) => measuredCase('gemini', '.gemini/skills', captureGemini, variants);

describe('Gemini CLI 0.61.0: the listing its model receives is the one SkillDock predicts', () => {
  it(`${VARIANTS.length} skill variants: each listed as written or left out exactly as predicted`, async () => {
    const { rows, own, model } = await geminiCase(VARIANTS);
    expect(mismatches(rows)).toBe('');
    // No cap and no escaping: a 2,000-character description and angle brackets go as written.
    expect(rows.find((r) => r.label === 'desc-2000')!.captured.length).toBe('full: '.length + 2000);
    expect(rows.find((r) => r.label === 'angle')!.captured).toBe('full: Has <xml> tags & ampersands.');
    expect(rows.find((r) => r.label === 'name-missing')!.captured).toBe('absent');
    // Its own skills come from an async glob of its builtin folder (loadSkillsFromDir), whose
    // order is not defined: both orders were seen here. What each holds is compared, not where.
    const byName = (a: [string, number], b: [string, number]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
    expect(own.map((c): [string, number] => [c.name, c.description!.length]).sort(byName)).toEqual(
      model.builtins.map((b): [string, number] => [b.name, b.descriptionChars]).sort(byName),
    );
  });

  it('60 skills with 1,000-character descriptions and 5 short ones: no budget, all in full', async () => {
    const { rows, view } = await geminiCase([...budgetSet('long', 60, 1000), ...budgetSet('short', 5, 40)]);
    expect(mismatches(rows)).toBe('');
    expect(rows.filter((r) => r.captured.startsWith('full:')).length).toBe(65);
    expect(view.budget.over).toBe(false);
  });
});

const qwenCase = (variants: Variant[]) => measuredCase('qwen', '.qwen/skills', captureQwen, variants);

describe('Qwen Code 0.24.4: the listing its model receives is the one SkillDock predicts', () => {
  it(`${VARIANTS.length} skill variants: past its 8,000-character block, the first line of each description, escaped, with its scope, or left out as predicted`, async () => {
    const { rows, own, model } = await qwenCase(VARIANTS);
    expect(mismatches(rows)).toBe('');
    expect(rows.find((r) => r.label === 'literal')!.captured).toBe('full: Kept line one. (user)');
    expect(rows.find((r) => r.label === 'dot-skill')!.captured.startsWith('full:')).toBe(true); // dot folders load
    expect(own.map((c) => [c.name, c.description!.length])).toEqual(model.builtins.map((b) => [b.name, b.descriptionChars]));
  });

  it('60 skills with 1,000-character descriptions and 5 short ones: past its budget, one-line descriptions still all in full', async () => {
    const { rows, view } = await qwenCase([...budgetSet('long', 60, 1000), ...budgetSet('short', 5, 40)]);
    expect(mismatches(rows)).toBe('');
    expect(rows.filter((r) => r.captured.startsWith('full:')).length).toBe(65);
    expect(view.budget.over).toBe(true);
  });
});

const opencodeCase = (variants: Variant[]) => measuredCase('opencode', '.config/opencode/skills', captureOpenCode, variants);

describe('OpenCode 1.18.33: the listing its model receives is the one SkillDock predicts', () => {
  it(`${VARIANTS.length} skill variants: descriptions exactly as written, or left out as predicted`, async () => {
    const { rows, own, model, nested } = await opencodeCase(VARIANTS);
    expect(mismatches(rows)).toBe('');
    expect(rows.find((r) => r.label === 'literal')!.captured).toBe('full: Kept line one.\nKept line two.\n');
    expect(rows.find((r) => r.label === 'dot-skill')?.captured ?? 'absent').toBe('absent'); // dot folders skipped
    expect(nested).toEqual([{ name: 'inner', found: true }]);
    expect(own.map((c) => [c.name, c.description!.length])).toEqual(model.builtins.map((b) => [b.name, b.descriptionChars]));
  });

  it('60 skills with 1,000-character descriptions and 5 short ones: no budget, all in full', async () => {
    const { rows } = await opencodeCase([...budgetSet('long', 60, 1000), ...budgetSet('short', 5, 40)]);
    expect(mismatches(rows)).toBe('');
    expect(rows.filter((r) => r.captured.startsWith('full:')).length).toBe(65);
  });
});
