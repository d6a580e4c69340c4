import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ATTACHED, UNATTACHED, agentFixture, launchIntoProject, runAgent, runScriptFrom, type AgentFixture } from './fixture.js';
import { copilotListing, copilotOffline, firstModelRequest } from './capture.js';
import { jsonStrings } from '../../src/verify/recorder.js';
import { requireAgent } from './pins.js';

// GitHub Copilot CLI 1.0.102 judges the launch: `copilot skill list --json`, and its first model
// request captured offline (its own BYOK provider settings pointed at a loopback recorder).

let fx: AgentFixture;
beforeEach(async () => {
  fx = await agentFixture('copilot');
});
afterEach(() => fx.done());

interface Listed {
  name: string;
  description: string;
  source: string;
  path: string;
}

const list = (bin: string, cwd: string) =>
  JSON.parse(runAgent(bin, ['skill', 'list', '--json'], { cwd, home: fx.scratchHome, env: { COPILOT_AUTO_UPDATE: 'false' } })) as Listed[];

describe('GitHub Copilot CLI discovers what SkillDock launched', () => {
  it('temporary workspace: each attached skill in .github/skills, the persona in AGENTS.md, both in the model request', async () => {
    const bin = requireAgent('copilot');
    const r = await fx.launch();
    expect(r.mode).toBe('native');
    expect(r.command[0]).toBe('copilot');
    const listed = list(bin, r.workspace).filter((l) => l.source === 'project');
    expect(listed.map((l) => l.name).sort()).toEqual(ATTACHED.map((s) => s.name).sort());
    for (const s of ATTACHED) {
      const hit = listed.find((l) => l.name === s.name)!;
      expect(hit.description).toBe(s.description);
      expect(hit.path).toBe(path.join(r.workspace, '.github/skills', s.name));
    }
    expect(listed.find((l) => l.name === UNATTACHED.name)).toBeUndefined();
    expect(runScriptFrom(listed.find((l) => l.name === 'xrunner')!.path)).toBe('x-ok from xrunner');

    // What the model is sent: the attached skills, and the context file with persona and state rules.
    const seen = await firstModelRequest(bin, [...r.command.slice(1), '-p', 'hi'], copilotOffline, {
      cwd: r.workspace,
      home: fx.scratchHome,
      env: r.env,
    });
    const names = copilotListing(seen.body).map((c) => c.name);
    for (const s of ATTACHED) expect(names).toContain(s.name);
    expect(names).not.toContain(UNATTACHED.name);
    const sent = jsonStrings(seen.body).join('\n');
    expect(sent).toContain('Answer briefly.');
    expect(sent).toContain('Skill state rules');
  });

  it('user workspace: index mode, nothing written into the project, every skill dir usable', async () => {
    const bin = requireAgent('copilot');
    const { project } = await launchIntoProject(fx);
    expect(list(bin, project).filter((l) => l.source === 'project')).toEqual([]);
  });
});
