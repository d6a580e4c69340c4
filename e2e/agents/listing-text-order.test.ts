import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createService } from '../../src/service.js';
import { resources, sandbox } from '../../test/support/workspaces.js';
import { captureGemini, captureOpenCode, captureQwen, type Captured } from './capture.js';
import { budgetSet, writeVariants, type Variant } from './variants.js';
import { ORDERED, ORDER_NAMES, SHAPES, filler } from './variants-text.js';
import { caseContext, measuredCase, mismatches, predictedOrder, type Row } from './listing-case.js';
import { requireAgent } from './pins.js';

// How a description's text and a skill's place in the listing reach the model, against the pinned
// CLIs: Qwen Code keeps descriptions as written until its listing block passes 8,000 characters
// (then first lines only), appends `when_to_use` after an em dash and sorts by the environment's
// language; OpenCode sorts by Unicode's default collation; Gemini CLI squeezes blank-line runs in its
// system prompt and lists each folder in an order that changes between runs.

const ctx = caseContext();

const sent = (rows: Row[], label: string) => rows.find((r) => r.label === label)?.captured;
const userOrder = (captured: Captured[], builtins: string[]) => captured.filter((c) => !builtins.includes(c.name)).map((c) => c.name);

/** The view's listing size for `variants` as Qwen Code counts it, from a scratch home of its own. */
async function qwenUsed(variants: Variant[]): Promise<number> {
  const scratch = sandbox();
  const other = createService({ paths: { home: scratch.home, userHome: scratch.userHome, resourcesDir: resources } });
  try {
    writeVariants(path.join(scratch.userHome, '.qwen', 'skills'), path.join(scratch.dir, 'outside'), variants);
    return (await other.api.agentView({ agent: 'qwen' })).budget.used;
  } finally {
    await other.close();
    scratch.done();
  }
}

/** Run `body` with the engine's own language variables set as given (restored after). */
async function withLanguage<T>(vars: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await body();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The engine's language for the CLI too, so both sort alike. */
const sameLanguage = (): Record<string, string> => (process.env.LANG ? { LANG: process.env.LANG } : {});

const qwenCase = (variants: Variant[], env?: Record<string, string>) =>
  measuredCase(ctx, 'qwen', '.qwen/skills', captureQwen, variants, env ?? sameLanguage());

describe('Qwen Code 0.24.4: descriptions as written until its 8,000-character listing budget, then first lines', () => {
  it('under the budget: every description as written (all its lines, untrimmed), when_to_use after an em dash', async () => {
    const { rows, view } = await qwenCase(SHAPES);
    expect(mismatches(rows)).toBe('');
    expect(view.budget.used).toBeLessThanOrEqual(8000);
    expect(sent(rows, 'literal')).toBe('full: Kept line one.\nKept line two.\n (user)');
    expect(sent(rows, 'literal-crlf')).toBe('full: CRLF line one.\nCRLF line two.\n (user)');
    expect(sent(rows, 'trailing-spaces')).toBe('full:   Spaces around.    (user)');
    expect(sent(rows, 'literal-keep')).toBe('full: Kept with blanks.\n\n (user)');
    expect(sent(rows, 'escaped-newlines')).toBe('full: First line.\nSecond line.\n (user)');
    expect(sent(rows, 'when-to-use')).toBe('full: Formats tables. \u2014 When the user pastes CSV &amp; &lt;tabs&gt;. (user)');
  });

  /** SHAPES and one filler skill sized from the prediction so that Qwen's block is `size` characters. */
  async function atSize(size: number) {
    const fill = 100 + size - (await qwenUsed([...SHAPES, filler(100)]));
    const out = await qwenCase([...SHAPES, filler(fill)]);
    expect(mismatches(out.rows)).toBe('');
    expect([out.view.budget.used, out.view.budget.over]).toEqual([size, size > 8000]);
    return out;
  }

  it('a listing block of exactly 8,000 characters: still every description as written', async () => {
    const { rows } = await atSize(8000);
    expect(sent(rows, 'folded-strip')).toBe('full: Folded and stripped.\nSecond paragraph. (user)');
  });

  it('8,001 characters: every description keeps only its first line, trimmed, and when_to_use is dropped', async () => {
    const { rows, view } = await atSize(8001);
    expect(sent(rows, 'literal')).toBe('full: Kept line one. (user)');
    expect(sent(rows, 'trailing-spaces')).toBe('full: Spaces around. (user)');
    expect(sent(rows, 'when-to-use')).toBe('full: Formats tables. (user)');
    const literal = view.skills.find((s) => s.listing.label === 'literal')!;
    expect([literal.listing.shown, literal.reasons.map((r) => r.code)]).toEqual(['shortened', ['listed-first-line']]);
    // A one-line description is sent the same either way: not reported as cut.
    expect(view.skills.find((s) => s.listing.label === 'fill')!.listing.shown).toBe('full');
  });

  it('sorted with localeCompare: PDF-Tools among the small letters, its own skills in between, as predicted', async () => {
    const { rows, captured, model, view } = await qwenCase(ORDERED);
    expect(mismatches(rows)).toBe('');
    const names = model.builtins.map((b) => b.name);
    expect(userOrder(captured, names)).toEqual(predictedOrder(view));
    expect(view.listingOrder?.stable).toBe(true);
    // Its own skills are sorted in with the user's: PDF-Tools comes between new-app and qc-helper.
    const all = captured.map((c) => c.name);
    expect(all.indexOf('new-app')).toBeLessThan(all.indexOf('PDF-Tools'));
    expect(all.indexOf('PDF-Tools')).toBeLessThan(all.indexOf('qc-helper'));
  });

  it('in a Swedish environment (LC_ALL=sv_SE.UTF-8) ägypten comes after zeta, as predicted from the same variables', async () => {
    const sv = { LC_ALL: 'sv_SE.UTF-8' };
    const { rows, captured, model, view } = await withLanguage(sv, () => qwenCase(ORDERED, sv));
    expect(mismatches(rows)).toBe('');
    const order = userOrder(
      captured,
      model.builtins.map((b) => b.name),
    );
    expect(order).toEqual(predictedOrder(view));
    expect(order.at(-1)).toBe('ägypten');
    expect(view.listingOrder?.msg.params).toMatchObject({ locale: 'sv-SE' });
  });
});

const opencodeCase = (variants: Variant[], env?: Record<string, string>) =>
  measuredCase(ctx, 'opencode', '.config/opencode/skills', captureOpenCode, variants, env ?? sameLanguage());

describe("OpenCode 1.18.33: sorted by Unicode's default collation, whatever the environment's language", () => {
  for (const [what, env] of [
    ['default environment', undefined],
    ['Swedish environment', { LC_ALL: 'sv_SE.UTF-8' }],
  ] as const) {
    it(`${what}: ${ORDER_NAMES.length} names in the predicted order, ägypten before alpha`, async () => {
      const run = () => opencodeCase(ORDERED, env);
      const { rows, captured, model, view } = env ? await withLanguage(env, run) : await run();
      expect(mismatches(rows)).toBe('');
      const order = userOrder(
        captured,
        model.builtins.map((b) => b.name),
      );
      expect(order).toEqual(predictedOrder(view));
      expect(order.indexOf('ägypten')).toBeLessThan(order.indexOf('alpha'));
      expect(order.indexOf('PDF-Tools')).toBeGreaterThan(order.indexOf('Beta'));
    });
  }
});

const geminiCase = (variants: Variant[], env?: Record<string, string>) =>
  measuredCase(ctx, 'gemini', '.gemini/skills', captureGemini, variants, env);

describe('Gemini CLI 0.61.0: blank-line runs squeezed to one blank line, and an order that is not predicted', () => {
  it('block scalars as js-yaml reads them, runs of three or more line breaks sent as two (|+ with a key after it)', async () => {
    const { rows } = await geminiCase(SHAPES);
    expect(mismatches(rows)).toBe('');
    expect(sent(rows, 'literal-keep-mid')).toBe('full: Kept, a key after.\n\n');
    expect(sent(rows, 'blank-runs')).toBe('full: Para one.\n\nPara two.\n');
  });

  it('300 skills: the view predicts no order, and runs of the CLI list them in different orders', async () => {
    const skills = budgetSet('s', 300, 20);
    // A wider thread pool lets more of its parallel file checks finish out of turn.
    const env = { UV_THREADPOOL_SIZE: '128' };
    const { rows, view, captured, model } = await geminiCase(skills, env);
    expect(mismatches(rows)).toBe('');
    expect(view.listingOrder?.stable).toBe(false);
    expect(view.listingOrder?.msg.key).toBe('agent.order.unstable');
    expect(predictedOrder(view)).toBeNull();
    const names = model.builtins.map((b) => b.name);
    const orders = new Set([userOrder(captured, names).join(' ')]);
    const cwd = path.join(ctx.sb.dir, 'cwd');
    for (let run = 0; run < 4 && orders.size < 2; run++) {
      orders.add(userOrder(await captureGemini(requireAgent('gemini'), { cwd, home: ctx.sb.userHome, env }), names).join(' '));
    }
    expect(orders.size).toBeGreaterThan(1);
  });
});
