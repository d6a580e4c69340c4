import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VerifyResult } from '../../src/contract/index.js';
import { caseContext } from './listing-case.js';
import { VARIANTS, budgetSet, writeVariants, type Variant } from './variants.js';
import { requireAgent, PINS, type Pin } from './pins.js';

// `skilldock verify` against each pinned real CLI: the user's skills in the agent's own folder of a
// scratch home, the engine finds nothing to correct. The listing tests (listing.test.ts) prove the
// same prediction against the same capture; here the product runs the CLI itself (its scratch home,
// the recorder, the registry's base-URL setting) and must come to the same verdict.

const ctx = caseContext();

/** Every row that differs, readable in a failure. */
function differences(r: VerifyResult): string {
  return r.rows
    .filter((x) => !x.same)
    .map(
      (x) =>
        `${x.label}\n  predicted: ${x.predicted.shown} ${String(x.predicted.description).slice(0, 120)}\n  captured:  ${x.captured.shown} ${String(x.captured.description).slice(0, 120)}`,
    )
    .join('\n');
}

const ROOT: Record<Pin['id'], string> = {
  claude: '.claude/skills',
  codex: '.agents/skills',
  copilot: '.copilot/skills',
  gemini: '.gemini/skills',
  opencode: '.config/opencode/skills',
  qwen: '.qwen/skills',
};

async function verifyCase(agent: Pin['id'], variants: Variant[]) {
  const root = path.join(ctx.sb.userHome, ROOT[agent]);
  writeVariants(root, path.join(ctx.sb.dir, 'outside'), variants);
  return ctx.svc.api.verifyAgent({ agent, cli: requireAgent(agent), timeoutMs: 150_000 });
}

describe('skilldock verify: the real CLI, run by the engine, agrees with the prediction', () => {
  for (const pin of PINS) {
    it(`${pin.id} ${pin.version}: ${VARIANTS.length} skill variants, no differences, the version read from the CLI`, async () => {
      const r = await verifyCase(pin.id, VARIANTS);
      expect(differences(r)).toBe('');
      expect(r.version).toBe(pin.version);
      expect(r.checkedOn).toBe(pin.version);
      expect(r.notes).toEqual([]);
      expect(r.rows.filter((x) => x.captured.shown !== 'missing').length).toBeGreaterThan(5);
      // The user's skills were really there: a plain one is listed in full.
      expect(r.rows.find((x) => x.label === 'plain')?.captured.shown).toBe('full');
    });
  }

  it('claude: 60 long descriptions past its budget, the names-only rows agree and say what to do', async () => {
    const r = await verifyCase('claude', [...budgetSet('long', 60, 1000), ...budgetSet('short', 5, 40)]);
    expect(differences(r)).toBe('');
    const nameOnly = r.rows.filter((x) => x.captured.shown === 'name-only');
    expect(nameOnly.length).toBeGreaterThan(10);
    expect(nameOnly.every((x) => x.advice?.key === 'verify.advice.name-only')).toBe(true);
  });
});
