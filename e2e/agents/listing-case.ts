import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { createService, type SkillDockService } from '../../src/service.js';
import type { AgentView } from '../../src/contract/index.js';
import { loadRegistry } from '../../src/agents/registry.js';
import { resources, sandbox, type Sandbox } from '../../test/support/workspaces.js';
import type { Captured, RunOpts } from './capture.js';
import { writeVariants, type Variant } from './variants.js';
import { requireAgent, type Pin } from './pins.js';

// Prediction against capture for one agent CLI, shared by the listing test files: the variants are
// written into the agent's user skills folder in a scratch home, SkillDock's view of that agent is
// read, the pinned CLI runs once against the loopback recorder, and the two are compared row by row.

export interface Row {
  label: string;
  predicted: string;
  captured: string;
}

const show = (d: string | null | undefined) => (d === undefined ? 'absent' : d === null ? 'name only' : `full: ${d}`);

/** Prediction vs capture, one row per label seen on either side (the agent's own skills aside). */
export function compare(view: AgentView, rootPath: string, captured: Captured[], builtins: string[]): Row[] {
  const predicted = new Map<string, string | null>();
  const hidden: string[] = [];
  for (const s of view.skills) {
    if (!s.dir.startsWith(rootPath + path.sep)) continue;
    if (s.listing.shown === 'hidden') hidden.push(s.listing.label);
    else predicted.set(s.listing.label, s.listing.description);
  }
  const got = new Map(captured.filter((c) => !builtins.includes(c.name)).map((c) => [c.name, c.description]));
  const rows: Row[] = [];
  for (const label of new Set([...predicted.keys(), ...got.keys(), ...hidden])) {
    const p = show(predicted.has(label) ? predicted.get(label) : undefined);
    const c = show(got.has(label) ? got.get(label) : undefined);
    rows.push({ label, predicted: p, captured: c });
  }
  return rows;
}

export function mismatches(rows: Row[]): string {
  return rows
    .filter((r) => r.predicted !== r.captured)
    .map((r) => `${r.label}\n  predicted: ${r.predicted.slice(0, 160)}\n  captured:  ${r.captured.slice(0, 160)}`)
    .join('\n');
}

/** The labels of the user's skills in the order the view predicts the agent lists them (null: it predicts none). */
export function predictedOrder(view: AgentView): string[] | null {
  const listed = view.skills.filter((s) => s.listing.shown !== 'hidden');
  if (listed.some((s) => s.listing.position === undefined || s.listing.position === null)) return null;
  return [...listed].sort((a, b) => a.listing.position! - b.listing.position!).map((s) => s.listing.label);
}

export interface CaseContext {
  sb: Sandbox;
  svc: SkillDockService;
}

/** A scratch home and a service on it for each test of the calling file (closed and removed after). */
export function caseContext(): CaseContext {
  const ctx = {} as CaseContext;
  beforeEach(() => {
    ctx.sb = sandbox();
    ctx.svc = createService({ paths: { home: ctx.sb.home, userHome: ctx.sb.userHome, resourcesDir: resources } });
  });
  afterEach(async () => {
    await ctx.svc.close();
    ctx.sb.done();
  });
  return ctx;
}

/**
 * An agent whose listing is read from its captured request: variants under `rootRel` in the scratch
 * home, prediction against capture. Skills nested below one folder are not catalog entries: the view
 * says whether the agent finds them (`nested[].found`), and each one it says is found must be listed.
 * `env` goes to the CLI (the engine reads its own process's).
 */
export async function measuredCase(
  ctx: CaseContext,
  agent: Pin['id'],
  rootRel: string,
  capture: (bin: string, opts: RunOpts) => Promise<Captured[]>,
  variants: Variant[],
  env?: Record<string, string>,
) {
  const { sb, svc } = ctx;
  const root = path.join(sb.userHome, rootRel);
  writeVariants(root, path.join(sb.dir, 'outside'), variants);
  const cwd = path.join(sb.dir, 'cwd');
  fs.mkdirSync(cwd, { recursive: true });
  const view = await svc.api.agentView({ agent });
  const captured = await capture(requireAgent(agent), { cwd, home: sb.userHome, ...(env ? { env } : {}) });
  const model = loadRegistry(resources).agents.find((a) => a.id === agent)!.listing!;
  const names = model.builtins.map((b) => b.name);
  const own = captured.filter((c) => names.includes(c.name));
  const nested = view.nested.filter((n) => n.dir.startsWith(root + path.sep)).map((n) => ({ name: path.basename(n.dir), found: n.found }));
  for (const n of nested) expect([n.name, captured.some((c) => c.name === n.name)]).toEqual([n.name, n.found]);
  const rows = compare(view, root, captured, names).filter((r) => !nested.some((n) => n.name === r.label));
  return { rows, view, captured, own, model, nested };
}
