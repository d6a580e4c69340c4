import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCommand, launchWorkspace } from './launch.js';
import { customAgentDef } from '../agents/registry.js';
import { agent, cliScript, launchSkills, sandbox, treeHash, writeSkill, type Sandbox } from '../../test/support/workspaces.js';
import { codexHookArgs, type CliInvocation } from './write-guard.js';

const cli: CliInvocation = { node: process.execPath, script: cliScript, env: {} };
let sb: Sandbox;
beforeEach(() => {
  sb = sandbox();
});
afterEach(() => sb.done());

type LaunchInput = Parameters<typeof launchWorkspace>[0];
/** A launch in the sandbox with the test CLI, as a built-in agent; `more` adds or overrides inputs. */
function launchIn(agentId: string, skills: LaunchInput['skills'], more: Partial<LaunchInput> = {}) {
  return launchWorkspace({
    home: sb.home,
    userHome: sb.userHome,
    agent: agent(agentId),
    assistant: { id: 'a1', name: 'R', rules: '' },
    skills,
    cli,
    ...more,
  });
}

function threeSkills() {
  return [
    writeSkill(sb.lib, 'runner', {
      description: 'Runs the x script.',
      body: 'Run `scripts/x.sh` from this skill folder.',
      files: { 'scripts/x.sh': '#!/bin/sh\necho "x ran in $(basename "$(pwd)")"\n' },
    }),
    writeSkill(sb.lib, 'code', {
      version: '1.0.4',
      description: 'Remembers code notes.',
      body: 'Read and write `~/code/memory.md` every time.',
    }),
    writeSkill(sb.lib, 'plain'),
  ];
}

describe('temporary workspace launch', () => {
  it('links each skill into the native dir, and every link resolves to its real folder', async () => {
    const skills = await launchSkills(threeSkills());
    const { result, conversation } = launchIn('gemini', skills, { assistant: { id: 'a1', name: 'Code Reviewer', rules: 'Be terse.' } });
    expect(result.temporary).toBe(true);
    expect(result.mode).toBe('native');
    expect(path.dirname(result.workspace)).toBe(path.join(sb.home, 'workspaces'));
    expect(path.basename(result.workspace)).toBe(result.conversationId);
    expect(result.conversationId).toMatch(/^code-reviewer-\d{8}-\d{6}-[0-9a-f]{8}$/);
    expect(result.problems).toEqual([]);
    expect(result.links.map((l) => l.skill).sort()).toEqual(['code', 'plain', 'runner']);
    for (const l of result.links) {
      expect(l.ok).toBe(true);
      expect(l.path).toBe(path.join(result.workspace, '.gemini/skills', l.skill));
      expect(fs.lstatSync(l.path).isSymbolicLink()).toBe(true);
      expect(fs.realpathSync(l.path)).toBe(path.join(sb.lib, l.skill));
      expect(fs.readFileSync(path.join(l.path, 'SKILL.md'), 'utf8')).toContain(`name: ${l.skill}`);
    }
    // Gemini only sees project skills in a trusted folder; the workspace is ours to trust.
    expect(result.env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(result.command[0]).toBe('gemini');
    expect(result.command[1]).toBe('--include-directories');
    expect(result.command[2]!.split(',')).toEqual(result.stateDirs.map((d) => d.dir));
    expect(conversation.skills.map((s) => [s.name, s.digest.length])).toEqual([
      ['runner', 64],
      ['code', 64],
      ['plain', 64],
    ]);
  });

  it('a relative script path in SKILL.md works through the link', async () => {
    const skills = await launchSkills(threeSkills());
    const { result } = launchIn('codex', skills);
    const link = result.links.find((l) => l.skill === 'runner')!.path;
    expect(link).toBe(path.join(result.workspace, '.agents/skills/runner'));
    const out = execFileSync('sh', ['scripts/x.sh'], { cwd: link, encoding: 'utf8' });
    expect(out.trim()).toBe('x ran in runner');
    const viaWorkspace = execFileSync(path.join('.agents/skills/runner', 'scripts/x.sh'), { cwd: result.workspace, encoding: 'utf8' });
    expect(viaWorkspace.trim()).toContain('x ran in');
  });

  it('writes persona and state rules into the context file, with no skills index', async () => {
    const skills = await launchSkills(threeSkills());
    const { result } = launchIn('claude', skills, { assistant: { id: 'a1', name: 'Reviewer', rules: 'Always answer in haiku.' } });
    expect(result.contextFile).toBe(path.join(result.workspace, 'CLAUDE.md'));
    const text = fs.readFileSync(result.contextFile!, 'utf8');
    expect(text).toContain('# Reviewer');
    expect(text).toContain('Always answer in haiku.');
    expect(text).toContain('## Skill state rules');
    expect(text).toContain('read-only');
    const codeDir = path.join(sb.home, 'skills-state', 'code-1.0.4');
    expect(text).toContain(`\`code\`: \`${codeDir}\``);
    expect(text).toContain(`\`~/code/\` -> \`${codeDir}${path.sep}\``);
    // no index: descriptions are not listed, the agent discovers skills natively
    expect(text).not.toContain('Runs the x script.');
    expect(text).not.toContain('Skill Directory');
    expect(result.firstMessage).toBeUndefined();
    for (const d of result.stateDirs) expect(fs.statSync(d.dir).isDirectory()).toBe(true);
    expect(result.stateDirs.map((d) => d.id).sort()).toEqual(['code-1.0.4', 'plain', 'runner']);
    // Claude gets the state dirs as writable extra dirs
    expect(result.command).toEqual(['claude', ...result.stateDirs.flatMap((d) => ['--add-dir', d.dir])]);
  });

  it('reports a skill whose link cannot be made, loudly and per skill', async () => {
    const skills = await launchSkills(threeSkills());
    // The library folder vanishes between catalog scan and launch: its link would dangle.
    fs.rmSync(path.join(sb.lib, 'plain'), { recursive: true });
    const { result } = launchIn('codex', skills);
    const bad = result.links.find((l) => l.skill === 'plain')!;
    expect(bad.ok).toBe(false);
    expect(bad.error).toMatch(/does not resolve/);
    expect(result.problems).toContainEqual(expect.objectContaining({ skill: 'plain', code: 'link-failed' }));
    expect(
      result.links
        .filter((l) => l.ok)
        .map((l) => l.skill)
        .sort(),
    ).toEqual(['code', 'runner']);
  });

  it('reports missing and duplicate skills instead of dropping them silently', async () => {
    const skills = await launchSkills(threeSkills());
    const { result } = launchIn('codex', [...skills, { name: 'gone', missing: true, entry: null }, skills[0]!]);
    expect(result.problems.map((p) => [p.skill, p.code])).toEqual([
      ['gone', 'missing'],
      ['runner', 'duplicate-name'],
    ]);
  });

  it('twenty concurrent launches of one assistant get twenty distinct workspaces', async () => {
    const skills = await launchSkills(threeSkills());
    const now = new Date('2026-12-02T10:00:00Z'); // same second for all: only the random part differs
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        Promise.resolve().then(() => launchIn('claude', skills, { assistant: { id: 'a', name: 'Same', rules: '' }, now }).result),
      ),
    );
    expect(new Set(results.map((r) => r.workspace)).size).toBe(20);
    expect(fs.readdirSync(path.join(sb.home, 'workspaces'))).toHaveLength(20);
    for (const r of results) expect(r.links.every((l) => l.ok)).toBe(true);
  });

  it('writes a Claude PreToolUse hook on Write|Edit that calls the policy check', async () => {
    const skills = await launchSkills(threeSkills());
    const { result, conversation } = launchIn('claude', skills);
    const settingsFile = path.join(result.workspace, '.claude/settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    const group = settings.hooks.PreToolUse[0];
    expect(group.matcher.split('|')).toEqual(expect.arrayContaining(['Write', 'Edit']));
    expect(group.hooks[0].type).toBe('command');
    expect(group.hooks[0].command).toContain(
      `${process.execPath} ${cliScript} policy check-write --hook --conversation ${result.conversationId}`,
    );
    expect(conversation.guardFiles).toEqual([settingsFile]);
  });

  it("writes a Gemini BeforeTool hook on write_file, replace and run_shell_command (timeouts in ms, Gemini's answer format)", async () => {
    const skills = await launchSkills(threeSkills());
    const extra = { matcher: '^run_shell_command$', hooks: [{ type: 'command' as const, command: 'deny-scripts', timeout: 10 }] };
    const { result, conversation } = launchIn('gemini', skills, { guardHooks: [extra] });
    const settingsFile = path.join(result.workspace, '.gemini/settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    expect(Object.keys(settings.hooks)).toEqual(['BeforeTool']);
    const [group, scripts] = settings.hooks.BeforeTool;
    // Gemini reads the matcher as a regular expression over its own tool names.
    const matcher = new RegExp(group.matcher);
    for (const tool of ['write_file', 'replace', 'run_shell_command']) expect(matcher.test(tool), tool).toBe(true);
    for (const tool of ['read_file', 'glob', 'write_todos', 'run_shell_command_x']) expect(matcher.test(tool), tool).toBe(false);
    expect(group.hooks[0]).toMatchObject({ type: 'command', timeout: 30_000 });
    expect(group.hooks[0].command).toContain(
      `${process.execPath} ${cliScript} policy check-write --hook --conversation ${result.conversationId} --format gemini-beforetool`,
    );
    expect(scripts).toEqual({
      matcher: '^run_shell_command$',
      hooks: [{ name: 'skilldock-guard', type: 'command', command: 'deny-scripts', timeout: 10_000 }],
    });
    expect(conversation.guardFiles).toEqual([settingsFile]);
    // a temporary workspace needs no variable for it: Gemini reads the workspace's own settings
    expect(result.env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: 'true' });
  });

  it('writes a Qwen Code PreToolUse hook; for a user project it goes beside the conversation, named by QWEN_CODE_SYSTEM_DEFAULTS_PATH', async () => {
    const skills = await launchSkills(threeSkills());
    const base = { home: sb.home, userHome: sb.userHome, agent: agent('qwen'), assistant: { id: 'a1', name: 'R', rules: '' }, skills, cli };
    const { result } = launchWorkspace(base);
    const settings = JSON.parse(fs.readFileSync(path.join(result.workspace, '.qwen/settings.json'), 'utf8'));
    const group = settings.hooks.PreToolUse[0];
    const matcher = new RegExp(group.matcher);
    for (const tool of ['write_file', 'edit', 'notebook_edit', 'run_shell_command']) expect(matcher.test(tool), tool).toBe(true);
    for (const tool of ['read_file', 'todo_write', 'save_memory']) expect(matcher.test(tool), tool).toBe(false);
    expect(group.hooks[0]).toMatchObject({ type: 'command', timeout: 30 });
    expect(group.hooks[0].command).toContain(`--conversation ${result.conversationId} --format qwen-pretooluse`);
    expect(result.env).toEqual({});

    const project = path.join(sb.dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'README.md'), 'hi\n');
    const before = treeHash(project);
    const { result: mine, conversation } = launchWorkspace({ ...base, workspace: project });
    expect(treeHash(project)).toBe(before);
    const guardFile = path.join(sb.home, 'conversations', mine.conversationId, 'guard-settings.json');
    expect(mine.env).toEqual({ QWEN_CODE_SYSTEM_DEFAULTS_PATH: guardFile });
    expect(conversation.guardFiles).toEqual([guardFile]);
    expect(JSON.parse(fs.readFileSync(guardFile, 'utf8')).hooks.PreToolUse[0].hooks[0].command).toContain(
      `--conversation ${mine.conversationId} --format qwen-pretooluse`,
    );
  });

  it("writes a Copilot CLI preToolUse hooks file in .github/hooks (no matcher, the command under bash), security's shell hook after it", async () => {
    const skills = await launchSkills(threeSkills());
    const extra = { matcher: '^(bash|write_bash)$', hooks: [{ type: 'command' as const, command: 'deny-scripts', timeout: 10 }] };
    const { result, conversation } = launchIn('copilot', skills, { guardHooks: [extra] });
    const file = path.join(result.workspace, '.github/hooks/skilldock-guard.json');
    const hooks = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(hooks.version).toBe(1);
    expect(hooks.hooks.preToolUse).toHaveLength(2);
    expect(hooks.hooks.preToolUse[0]).toMatchObject({ type: 'command', timeoutSec: 30 });
    expect(hooks.hooks.preToolUse[0].bash).toContain(`--conversation ${result.conversationId} --format copilot-pretooluse`);
    expect(hooks.hooks.preToolUse[1]).toEqual({ type: 'command', bash: 'deny-scripts', timeoutSec: 10 });
    expect(conversation.guardFiles).toEqual([file]);
  });

  it('gives Codex its hook as -c arguments with its trust for this run, in a temporary workspace and a user project alike; no file', async () => {
    const skills = await launchSkills(threeSkills());
    const extra = { matcher: '^Bash$', hooks: [{ type: 'command' as const, command: 'deny-scripts', timeout: 10 }] };
    const base = {
      home: sb.home,
      userHome: sb.userHome,
      agent: agent('codex'),
      assistant: { id: 'a1', name: 'R', rules: '' },
      skills,
      cli,
    };
    const project = path.join(sb.dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'README.md'), 'hi\n');
    const before = treeHash(project);
    for (const workspace of [undefined, project]) {
      const { result, conversation } = launchWorkspace({ ...base, ...(workspace ? { workspace } : {}), guardHooks: [extra] });
      const at = result.command.indexOf('-c');
      expect(at, result.command.join(' ')).toBeGreaterThan(0);
      const [c1, hooks, c2, state] = result.command.slice(at);
      expect([c1, c2]).toEqual(['-c', '-c']);
      const guard = `policy check-write --hook --conversation ${result.conversationId} --format codex-pretooluse`;
      expect(hooks).toMatch(
        /^hooks\.PreToolUse=\[\{matcher="\^\(Bash\|apply_patch\)\$",hooks=\[\{type="command",command=".*",timeout=30\}\]\},/,
      );
      expect(hooks).toContain(guard);
      expect(hooks).toContain('{matcher="^Bash$",hooks=[{type="command",command="deny-scripts",timeout=10}]}');
      // the usage ledger's hook comes last (src/usage/hook.ts), trusted like the others
      expect(hooks).toMatch(/,\{matcher="\^Bash\$",hooks=\[\{type="command",command="[^"]*usage hook --agent codex",timeout=10\}\]\}\]$/);
      expect(state).toMatch(
        /^hooks\.state=\{"\/<session-flags>\/config\.toml:pre_tool_use:0:0"=\{trusted_hash="sha256:[0-9a-f]{64}"\},"\/<session-flags>\/config\.toml:pre_tool_use:1:0"=\{trusted_hash="sha256:[0-9a-f]{64}"\},"\/<session-flags>\/config\.toml:pre_tool_use:2:0"=\{trusted_hash="sha256:[0-9a-f]{64}"\}\}$/,
      );
      expect(conversation.guardFiles).toEqual([]);
      expect(result.env).toEqual({});
    }
    expect(treeHash(project)).toBe(before);
  });

  it("computes Codex's hook hash as Codex 0.171.0 does (vector from its app-server hooks/list)", () => {
    const [, , , state] = codexHookArgs('-c', [{ matcher: '^Bash$', hooks: [{ type: 'command', command: 'echo hi', timeout: 30 }] }]);
    expect(state).toBe(
      'hooks.state={"/<session-flags>/config.toml:pre_tool_use:0:0"={trusted_hash="sha256:fa9b93ebc9309ea03387187ded79fba5c71723ec55d53b571a5bf035c75f27ae"}}',
    );
  });

  it("adds security's extra hook groups to the same settings file", async () => {
    const skills = await launchSkills(threeSkills());
    const extra = { matcher: 'Bash', hooks: [{ type: 'command' as const, command: 'deny-scripts', timeout: 10 }] };
    const { result } = launchIn('claude', skills, { guardHooks: [extra] });
    const settings = JSON.parse(fs.readFileSync(path.join(result.workspace, '.claude/settings.json'), 'utf8'));
    expect(settings.hooks.PreToolUse).toHaveLength(3);
    expect(settings.hooks.PreToolUse[1]).toEqual(extra);
    // the usage ledger's hook, on the tools that load a skill
    expect(settings.hooks.PreToolUse[2]).toMatchObject({ matcher: 'Skill|Read', hooks: [{ type: 'command', timeout: 10 }] });
    expect(settings.hooks.PreToolUse[2].hooks[0].command).toMatch(/ usage hook --agent claude$/);
  });
});

describe('launch into the user workspace', () => {
  it('writes nothing into the project (tree hash identical) and uses a skills view for Claude', async () => {
    const skills = await launchSkills(threeSkills());
    const project = path.join(sb.dir, 'project');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.writeFileSync(path.join(project, 'src/main.ts'), 'export {};\n');
    fs.mkdirSync(path.join(project, '.claude'));
    fs.writeFileSync(path.join(project, 'CLAUDE.md'), '# project rules\n');
    const before = treeHash(project);
    const { result } = launchIn('claude', skills, { assistant: { id: 'a1', name: 'R', rules: 'Persona.' }, workspace: project });
    expect(treeHash(project)).toBe(before);
    expect(result.workspace).toBe(project);
    expect(result.temporary).toBe(false);
    expect(result.mode).toBe('native');
    const view = path.join(sb.home, 'conversations', result.conversationId, 'view');
    for (const l of result.links) {
      expect(l.path).toBe(path.join(view, '.claude/skills', l.skill));
      expect(fs.realpathSync(l.path)).toBe(path.join(sb.lib, l.skill));
    }
    expect(result.command.slice(0, 3)).toEqual(['claude', '--add-dir', view]);
    expect(result.contextFile).toBe(path.join(view, 'CLAUDE.md'));
    expect(result.env).toEqual({ CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD: '1' });
    // the write guard comes from a settings file outside the project, loaded with --settings
    const guardFile = path.join(sb.home, 'conversations', result.conversationId, 'guard-settings.json');
    expect(result.command.slice(-2)).toEqual(['--settings', guardFile]);
    const hook = JSON.parse(fs.readFileSync(guardFile, 'utf8')).hooks.PreToolUse[0].hooks[0].command;
    expect(hook).toContain(`policy check-write --hook --conversation ${result.conversationId}`);
  });

  it('index mode for Codex: its --add-dir only grants writes, so skill folders are not handed over', async () => {
    const skills = await launchSkills(threeSkills());
    const project = path.join(sb.dir, 'project');
    fs.mkdirSync(project);
    const { result } = launchIn('codex', skills, { workspace: project });
    expect(result.mode).toBe('index');
    // then the write guard's -c arguments, and its sandbox's
    const at = result.command.indexOf('-c');
    expect(result.command.slice(0, at)).toEqual(['codex', ...result.stateDirs.flatMap((d) => ['--add-dir', d.dir])]);
    expect(result.command.slice(at + 4)).toEqual([
      '-c',
      'sandbox_mode="workspace-write"',
      '-c',
      `sandbox_workspace_write.writable_roots=[${result.stateDirs.map((d) => JSON.stringify(d.dir)).join(',')}]`,
      // the test's home is under the OS temp folder, which Codex's sandbox would leave writable
      '-c',
      'sandbox_workspace_write.exclude_slash_tmp=true',
      '-c',
      'sandbox_workspace_write.exclude_tmpdir_env_var=true',
    ]);
    expect(fs.readFileSync(path.join(sb.home, 'conversations', result.conversationId, 'first-message.md'), 'utf8')).toBe(
      result.firstMessage,
    );
  });

  it('falls back to index mode (first message with Skill Directory) for an agent that cannot load a view', async () => {
    const dirs = threeSkills();
    const skills = await launchSkills(dirs);
    const project = path.join(sb.dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'README.md'), 'hi\n');
    const before = treeHash(project);
    const { result } = launchIn('gemini', skills, { assistant: { id: 'a1', name: 'R', rules: 'Persona.' }, workspace: project });
    expect(treeHash(project)).toBe(before);
    expect(result.mode).toBe('index');
    expect(result.links).toEqual([]);
    expect(result.contextFile).toBeNull();
    // Session trust only: headless Gemini refuses an untrusted folder; nothing is written to trust it.
    // No write guard here: Gemini reads hooks from no settings file SkillDock may write for a
    // user's project (it skips a system-defaults file not owned by root); the rules are all it gets.
    expect(result.env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(fs.existsSync(path.join(sb.home, 'conversations', result.conversationId, 'guard-settings.json'))).toBe(false);
    const msg = result.firstMessage!;
    for (const d of dirs) {
      const name = path.basename(d);
      expect(msg).toMatch(new RegExp(`- \\*\\*${name}\\*\\*: .+ \\[Skill Directory: ${d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\]`));
    }
    expect(msg).toContain('Runs the x script.');
    expect(msg).toContain('## Skill state rules');
    // skill folders (to read them) and state dirs (to write) are handed over as extra dirs
    expect(result.command[1]).toBe('--include-directories');
    expect(result.command[2]!.split(',')).toEqual([...dirs, ...result.stateDirs.map((d) => d.dir)]);
  });

  it('refuses a workspace that does not exist', async () => {
    expect(() => launchIn('claude', [], { workspace: path.join(sb.dir, 'nope') })).toThrow(/does not exist/);
  });
});

describe('agent command', () => {
  it('passes extra dirs the way each agent takes them', () => {
    expect(buildCommand(agent('claude'), ['/a', '/b'])).toEqual(['claude', '--add-dir', '/a', '--add-dir', '/b']);
    expect(buildCommand(agent('gemini'), ['/a', '/b'])).toEqual(['gemini', '--include-directories', '/a,/b']);
    expect(buildCommand(agent('opencode'), ['/a'])).toEqual(['opencode']);
    expect(buildCommand(agent('generic'), ['/a'])).toEqual([]);
    const custom = customAgentDef({ id: 'mine', name: 'Mine', command: 'mine  --fast', skillsDir: '.mine/skills', contextFile: 'MINE.md' });
    expect(buildCommand(custom, ['/a'])).toEqual(['mine', '--fast']);
  });
});

describe('custom agent launch', () => {
  it('writes a context file that sits in a subfolder (docs/AGENT.md)', async () => {
    const skills = await launchSkills([writeSkill(sb.lib, 'plain')]);
    const custom = customAgentDef({ id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'docs/AGENT.md' });
    const { result } = launchWorkspace({
      home: sb.home,
      userHome: sb.userHome,
      agent: custom,
      assistant: { id: 'a1', name: 'Nested', rules: 'Be kind.' },
      skills,
      cli,
    });
    expect(result.contextFile).toBe(path.join(result.workspace, 'docs', 'AGENT.md'));
    expect(fs.readFileSync(result.contextFile!, 'utf8')).toContain('Be kind.');
    expect(fs.realpathSync(path.join(result.workspace, '.mine/skills/plain'))).toBe(fs.realpathSync(path.join(sb.lib, 'plain')));
  });

  it('a launch that fails half-way removes the workspace and data it made, and never follows a link', async () => {
    const skills = await launchSkills([writeSkill(sb.lib, 'plain', { files: { 'scripts/x.sh': 'echo x\n' } })]);
    const before = treeHash(sb.lib);
    // A context file path that is a folder SkillDock made (the workspace itself): writing it fails
    // after the links are in place.
    const broken = {
      ...customAgentDef({ id: 'mine', name: 'Mine', command: 'mine', skillsDir: '.mine/skills', contextFile: 'X.md' }),
      contextFile: '.mine',
    };
    expect(() =>
      launchWorkspace({
        home: sb.home,
        userHome: sb.userHome,
        agent: broken,
        assistant: { id: 'a1', name: 'Broken', rules: 'x' },
        skills,
        cli,
      }),
    ).toThrow(/EISDIR/);
    const left = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
    expect(left(path.join(sb.home, 'workspaces'))).toEqual([]);
    expect(left(path.join(sb.home, 'conversations'))).toEqual([]);
    expect(treeHash(sb.lib)).toBe(before);
  });
});
