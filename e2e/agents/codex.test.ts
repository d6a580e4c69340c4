import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ATTACHED, UNATTACHED, agentFixture, launchIntoProject, runAgent, runScriptFrom, type AgentFixture } from './fixture.js';
import { parseCodexPrompt } from './listings.js';
import { requireAgent } from './pins.js';

// Codex 0.171.0 judges the launch: `codex debug prompt-input`, offline, scratch HOME; the skills
// block of the developer message lists what it discovered.

let fx: AgentFixture;
beforeEach(async () => {
  fx = await agentFixture('codex');
});
afterEach(() => fx.done());

const list = (bin: string, cwd: string, env: Record<string, string> = {}) =>
  parseCodexPrompt(runAgent(bin, ['debug', 'prompt-input', 'hi'], { cwd, home: fx.scratchHome, env }));

describe('Codex discovers what SkillDock launched', () => {
  it('temporary workspace: each attached skill under its name with its description, nothing else', async () => {
    const bin = requireAgent('codex');
    const r = await fx.launch();
    expect(r.mode).toBe('native');
    const listed = list(bin, r.workspace, r.env);
    for (const s of ATTACHED) {
      const hit = listed.find((l) => l.name === s.name);
      expect(hit, `${s.name} not listed by codex:\n${JSON.stringify(listed, null, 1)}`).toBeDefined();
      expect(hit!.description).toBe(s.description);
      expect(hit!.location).toBe(path.join(r.workspace, '.agents/skills', s.name, 'SKILL.md'));
    }
    expect(listed.find((l) => l.name === UNATTACHED.name)).toBeUndefined();
    const runner = listed.find((l) => l.name === 'xrunner')!;
    expect(runScriptFrom(path.dirname(runner.location))).toBe('x-ok from xrunner');
    // The context file reached codex too (AGENTS.md with persona and state rules).
    const prompt = runAgent(bin, ['debug', 'prompt-input', 'hi'], { cwd: r.workspace, home: fx.scratchHome });
    expect(prompt).toContain('Skill state rules');
    expect(prompt).toContain('Answer briefly.');
  });

  it('user workspace: index mode, nothing written into the project, every skill dir usable', async () => {
    const bin = requireAgent('codex');
    const { project } = await launchIntoProject(fx);
    const listed = list(bin, project);
    for (const s of ATTACHED) expect(listed.find((l) => l.name === s.name)).toBeUndefined();
  });
});
