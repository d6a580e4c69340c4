import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { treeHash } from '../../test/support/workspaces.js';
import { ATTACHED, UNATTACHED, agentFixture, runAgent, runScriptFrom, type AgentFixture } from './fixture.js';
import { requireAgent } from './pins.js';

// Claude Code 2.1.332 judges the launch: offline with a fake key, its first stream-json event
// (`init`) lists the skills it loaded by name (the identifier is the directory name). It carries no
// descriptions; those are checked through gemini and codex.

let fx: AgentFixture;
beforeEach(async () => {
  fx = await agentFixture('claude');
});
afterEach(() => fx.done());

const OFFLINE = {
  ANTHROPIC_API_KEY: 'sk-ant-fake',
  CLAUDE_CODE_MAX_RETRIES: '0',
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
};

/** Skill names from the init event of `claude <args> -p hi --output-format stream-json`. */
function initSkills(bin: string, args: string[], cwd: string, env: Record<string, string>): string[] {
  let out: string;
  try {
    out = runAgent(bin, [...args, '-p', 'hi', '--output-format', 'stream-json', '--verbose', '--max-turns', '1'], {
      cwd,
      home: fx.scratchHome,
      env: { ...OFFLINE, ...env },
    });
  } catch (err) {
    // Offline the model call fails after init; the init line is still on stdout.
    out = String((err as Error).message);
  }
  const line = out.split('\n').find((l) => l.includes('"subtype":"init"'));
  if (!line) throw new Error(`claude printed no init event:\n${out.slice(0, 2000)}`);
  return (JSON.parse(line.slice(line.indexOf('{'))) as { skills: string[] }).skills;
}

describe('Claude Code discovers what SkillDock launched', () => {
  it('temporary workspace: each attached skill under its name, not the unattached one', async () => {
    const bin = requireAgent('claude');
    const r = await fx.launch();
    expect(r.mode).toBe('native');
    const skills = initSkills(bin, r.command.slice(1), r.workspace, r.env);
    for (const s of ATTACHED) expect(skills, `${s.name} missing from ${skills.join(', ')}`).toContain(s.name);
    expect(skills).not.toContain(UNATTACHED.name);
    expect(runScriptFrom(path.join(r.workspace, '.claude/skills/xrunner'))).toBe('x-ok from xrunner');
  });

  it('user workspace: the per-conversation view handed over with --add-dir is loaded; the project is untouched', async () => {
    const bin = requireAgent('claude');
    const project = path.join(fx.sb.dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'index.js'), 'console.log(1);\n');
    const before = treeHash(project);
    const r = await fx.launch(project);
    expect(r.mode).toBe('native');
    expect(r.command[1]).toBe('--add-dir');
    const skills = initSkills(bin, r.command.slice(1), project, r.env);
    expect(treeHash(project)).toBe(before);
    for (const s of ATTACHED) expect(skills, `${s.name} missing from ${skills.join(', ')}`).toContain(s.name);
    expect(skills).not.toContain(UNATTACHED.name);
    // without the view the project alone has none of them
    const bare = initSkills(bin, [], project, {});
    for (const s of ATTACHED) expect(bare).not.toContain(s.name);
  });
});
