import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createService, type SkillDockService } from '../../src/service.js';
import { resources, sandbox, writeSkill, type Sandbox } from '../../test/support/workspaces.js';
import {
  captureClaude,
  captureCodex,
  captureCopilot,
  captureGemini,
  captureOpenCode,
  captureQwen,
  type Captured,
  type RunOpts,
} from './capture.js';
import { requireAgent, type Pin } from './pins.js';

// A skill SkillDock deploys to an agent's user folder (HOME is a temporary home) is in the listing
// that agent's CLI sends its model: the real, pinned CLI, run against the loopback recorder. A link
// for every agent, and a copy for one (Codex ignores a linked SKILL.md but follows a linked folder).

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

const CAPTURE: Record<Pin['id'], (bin: string, opts: RunOpts) => Promise<Captured[]>> = {
  claude: captureClaude,
  codex: captureCodex,
  gemini: captureGemini,
  qwen: captureQwen,
  opencode: captureOpenCode,
  copilot: captureCopilot,
};

async function deployedAndListed(agent: Pin['id'], mode: 'link' | 'copy'): Promise<void> {
  const bin = requireAgent(agent);
  const name = `deployed-probe-${mode}`;
  const src = path.join(sb.dir, 'src');
  writeSkill(src, name, { description: `Use ${name} to check that SkillDock deployments reach the model.` });
  const imported = await svc.api.importPaths({ paths: [path.join(src, name)] });
  expect(imported.results[0]?.status).toBe('imported');
  const r = await svc.api.deploySet({ skills: [name], agents: [agent], mode });
  const placed = r.steps.filter((s) => s.action === 'place');
  expect(placed.length, JSON.stringify(r.steps)).toBeGreaterThan(0);
  for (const s of placed) expect(fs.existsSync(path.join(s.path, 'SKILL.md'))).toBe(true);
  const cwd = path.join(sb.dir, 'cwd');
  fs.mkdirSync(cwd, { recursive: true });
  const listed = await CAPTURE[agent](bin, { cwd, home: sb.userHome });
  const hit = listed.find((c) => c.name === name);
  expect(hit, `${agent} listed: ${listed.map((c) => c.name).join(', ')}; placed at ${placed.map((s) => s.path).join(', ')}`).toBeDefined();
  expect(hit!.description ?? '').toContain('reach the model');
}

describe('a skill deployed by SkillDock is in the listing each agent sends its model', () => {
  for (const agent of Object.keys(CAPTURE) as Pin['id'][]) {
    it(`${agent} (link)`, () => deployedAndListed(agent, 'link'));
  }
  it('codex (copy)', () => deployedAndListed('codex', 'copy'));

  it('on for every agent at once: each lists it exactly once', async () => {
    const name = 'everywhere';
    const src = path.join(sb.dir, 'src');
    writeSkill(src, name, { description: 'Use everywhere to check that no agent lists a deployed skill twice.' });
    await svc.api.importPaths({ paths: [path.join(src, name)] });
    const r = await svc.api.deploySet({ skills: [name], allAgents: true, mode: 'link' });
    expect(r.steps.filter((s) => s.action === 'place').length).toBeGreaterThan(0);
    const cwd = path.join(sb.dir, 'cwd');
    fs.mkdirSync(cwd, { recursive: true });
    const counts: Record<string, number> = {};
    for (const agent of Object.keys(CAPTURE) as Pin['id'][]) {
      const listed = await CAPTURE[agent](requireAgent(agent), { cwd, home: sb.userHome });
      counts[agent] = listed.filter((c) => c.name === name).length;
    }
    expect(counts).toEqual({ claude: 1, codex: 1, gemini: 1, qwen: 1, opencode: 1, copilot: 1 });
  });
});
