import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createService, type SkillDockService } from '../service.js';
import { ConversationLog } from './conversations.js';
import { resources, sandbox, writeSkill, type Sandbox } from '../../test/support/workspaces.js';

// Issue 6 part 3 at launch: a skill whose scripts changed since the user approved them stops the
// launch by default; the user may instead launch without it (omit) or with its scripts denied (skip).

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

async function changedTool(agent = 'claude'): Promise<void> {
  writeSkill(sb.lib, 'tool', { body: 'Run `./scripts/x.sh` to do it.', files: { 'scripts/x.sh': '#!/bin/sh\necho one\n' } });
  writeSkill(sb.lib, 'notes');
  await svc.api.approveSkill({ name: 'tool' });
  await svc.api.createAssistant({ name: 'Helper', agent, rules: 'Be brief.', skills: ['tool', 'notes'] });
  // Launch once while approved, so any cached surface is the approved one.
  const ok = await svc.api.launchAssistant({ assistant: 'Helper' });
  expect(ok.problems).toEqual([]);
  fs.writeFileSync(path.join(sb.lib, 'tool', 'scripts', 'x.sh'), '#!/bin/sh\necho two\n'); // same size
}

const workspaces = () => fs.readdirSync(path.join(sb.home, 'workspaces')).sort();

describe('launch and scripts changed since approval', () => {
  it('refuses by default, naming the skill, and writes nothing', async () => {
    await changedTool();
    const before = workspaces();
    const recorded = new ConversationLog(sb.home).list().length;
    const r = await svc.call('launchAssistant', { assistant: 'Helper' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('refused');
    expect(r.error.message).toMatch(/Launch refused: the scripts of "tool" \(changed since approval\) need approval/);
    expect((r.error.details as { skills: Array<{ name: string; status: string }> }).skills.map((s) => [s.name, s.status])).toEqual([
      ['tool', 'changed'],
    ]);
    expect(workspaces()).toEqual(before);
    expect(new ConversationLog(sb.home).list()).toHaveLength(recorded);
    // explicit 'refuse' is the same
    expect(await svc.call('launchAssistant', { assistant: 'Helper', onScriptsChanged: 'refuse' })).toMatchObject({
      ok: false,
      error: { code: 'refused' },
    });
  });

  it("'omit' launches without the skill and says so", async () => {
    await changedTool();
    const r = await svc.api.launchAssistant({ assistant: 'Helper', onScriptsChanged: 'omit' });
    expect(r.links.map((l) => l.skill)).toEqual(['notes']);
    expect(fs.existsSync(path.join(r.workspace, '.claude', 'skills', 'tool'))).toBe(false);
    expect(r.problems.map((p) => [p.skill, p.code])).toEqual([['tool', 'script-omitted']]);
    expect(r.problems[0]!.message).toContain('changed since the user approved them');
    expect(r.stateDirs.map((d) => d.skill)).toEqual(['notes']);
    const conv = (await svc.api.listWorkspaces({})).find((w) => w.conversationId === r.conversationId)!;
    expect(conv.skills.map((s) => s.name)).toEqual(['notes']);
  });

  it("'skip' links it with its scripts denied (context file and Bash hook)", async () => {
    await changedTool();
    const r = await svc.api.launchAssistant({ assistant: 'Helper', onScriptsChanged: 'skip' });
    expect(r.links.map((l) => [l.skill, l.ok])).toEqual([
      ['tool', true],
      ['notes', true],
    ]);
    expect(r.problems.map((p) => [p.skill, p.code])).toEqual([['tool', 'script-blocked']]);
    expect(fs.readFileSync(r.contextFile!, 'utf8')).toContain('Do not run any script of skill `tool`');
    const settings = JSON.parse(fs.readFileSync(path.join(r.workspace, '.claude', 'settings.json'), 'utf8'));
    const bash = settings.hooks.PreToolUse.find((g: { matcher: string }) => g.matcher === 'Bash');
    expect(bash.hooks[0].command).toContain('skills/tool');
  });

  it("'skip' places a folder of SkillDock's own: the instructions and references, no script, nothing leading to the library", async () => {
    await changedTool();
    fs.mkdirSync(path.join(sb.lib, 'tool', 'references'));
    fs.writeFileSync(path.join(sb.lib, 'tool', 'references', 'guide.md'), '# guide\n');
    fs.writeFileSync(path.join(sb.lib, 'tool', 'helper.txt'), '#!/bin/sh\necho sneaky\n'); // a #! line: withheld too
    fs.symlinkSync(path.join(sb.lib, 'tool', 'scripts', 'x.sh'), path.join(sb.lib, 'tool', 'alias.sh'));
    const r = await svc.api.launchAssistant({ assistant: 'Helper', onScriptsChanged: 'skip' });
    const tool = r.links.find((l) => l.skill === 'tool')!;
    expect(tool).toMatchObject({ ok: true, materialized: true, withheld: ['alias.sh', 'helper.txt', 'scripts/x.sh'] });
    const placed = path.join(r.workspace, '.claude', 'skills', 'tool');
    expect(tool.path).toBe(placed);
    expect(fs.lstatSync(placed).isDirectory()).toBe(true); // a real folder, not a link
    expect(fs.readFileSync(path.join(placed, 'SKILL.md'), 'utf8')).toBe(fs.readFileSync(path.join(sb.lib, 'tool', 'SKILL.md'), 'utf8'));
    expect(fs.readFileSync(path.join(placed, 'references', 'guide.md'), 'utf8')).toBe('# guide\n');
    expect(fs.readdirSync(placed).sort()).toEqual(['SCRIPTS-WITHHELD.md', 'SKILL.md', 'references']);
    expect(fs.readFileSync(path.join(placed, 'SCRIPTS-WITHHELD.md'), 'utf8')).toContain('- `scripts/x.sh`');
    // No file of the workspace is a link or holds an exec bit: a glob, a variable or `find -exec` finds no script.
    const walk = (d: string): string[] =>
      fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]));
    for (const f of walk(placed)) {
      expect(fs.lstatSync(f).isSymbolicLink(), f).toBe(false);
      expect(fs.statSync(f).mode & 0o111, f).toBe(0);
    }
    // Claude Code's own sandbox: on, no way out of it for a command, the library's copy hidden from the shell
    const settings = JSON.parse(fs.readFileSync(path.join(r.workspace, '.claude', 'settings.json'), 'utf8'));
    expect(settings.sandbox).toEqual({
      enabled: true,
      allowUnsandboxedCommands: false,
      filesystem: { denyRead: [path.join(sb.lib, 'tool')] },
    });
    // the approved skill is still a link to the library
    expect(fs.lstatSync(path.join(r.workspace, '.claude', 'skills', 'notes')).isSymbolicLink()).toBe(true);
    // approved again: linked as before
    await svc.api.approveSkill({ name: 'tool' });
    const again = await svc.api.launchAssistant({ assistant: 'Helper' });
    expect(again.links.find((l) => l.skill === 'tool')).toEqual(expect.not.objectContaining({ materialized: true }));
    expect(fs.lstatSync(path.join(again.workspace, '.claude', 'skills', 'tool')).isSymbolicLink()).toBe(true);
  });

  it('OpenCode (no hook, no sandbox): the launch says the block is advisory; a hooked agent gets no such word', async () => {
    await changedTool('opencode');
    const r = await svc.api.launchAssistant({ assistant: 'Helper', onScriptsChanged: 'skip' });
    expect(r.problems.map((p) => [p.skill, p.code])).toEqual([
      ['tool', 'script-blocked'],
      ['tool', 'script-advisory'],
    ]);
    expect(r.problems[1]!.message).toContain('OpenCode runs no hook');
    expect(r.problems[1]!.message).toContain('the block is advisory');
    expect(r.links.find((l) => l.skill === 'tool')).toMatchObject({ materialized: true, withheld: ['scripts/x.sh'] });
  });

  it("index mode (a user's project): the first message names the folder without scripts, not the library's", async () => {
    await changedTool('gemini');
    const project = path.join(sb.dir, 'project');
    fs.mkdirSync(project);
    const r = await svc.api.launchAssistant({ assistant: 'Helper', workspace: project, onScriptsChanged: 'skip' });
    expect(r.mode).toBe('index');
    const placed = path.join(sb.home, 'conversations', r.conversationId, 'skills', 'tool');
    expect(r.links).toEqual([expect.objectContaining({ skill: 'tool', path: placed, materialized: true, withheld: ['scripts/x.sh'] })]);
    expect(r.firstMessage).toContain(`[Skill Directory: ${placed}]`);
    expect(r.firstMessage).not.toContain(path.join(sb.lib, 'tool'));
    expect(r.firstMessage).toContain(`[Skill Directory: ${path.join(sb.lib, 'notes')}]`);
    expect(r.command.join(' ')).not.toContain(path.join(sb.lib, 'tool'));
    expect(fs.existsSync(path.join(placed, 'scripts'))).toBe(false);
  });

  it('launches normally again once the changed scripts are approved', async () => {
    await changedTool();
    await svc.api.approveSkill({ name: 'tool' });
    const r = await svc.api.launchAssistant({ assistant: 'Helper' });
    expect(r.problems).toEqual([]);
    expect(r.links.map((l) => l.skill)).toEqual(['tool', 'notes']);
  });

  it('a chmod +x alone (same bytes, same mtime) is a changed surface too', async () => {
    writeSkill(sb.lib, 'tool', { files: { 'assets/run.py': 'print(1)\n' } });
    await svc.api.createAssistant({ name: 'Helper', agent: 'claude', skills: ['tool'] });
    expect((await svc.api.launchAssistant({ assistant: 'Helper' })).problems).toEqual([]);
    const file = path.join(sb.lib, 'tool', 'assets', 'run.py');
    const { atime, mtime } = fs.statSync(file);
    fs.chmodSync(file, 0o755);
    fs.utimesSync(file, atime, mtime);
    const r = await svc.call('launchAssistant', { assistant: 'Helper' });
    expect(r).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(!r.ok && r.error.message).toContain('"tool" (not approved)');
  });
});
