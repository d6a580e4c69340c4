import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAgent } from '../../src/agents/registry.js';
import { resources, treeHash } from '../../test/support/workspaces.js';
import { ATTACHED, UNATTACHED, agentFixture, runAgent, runScriptFrom, type AgentFixture } from './fixture.js';
import { parseGeminiList } from './listings.js';
import { firstModelRequest, run } from './capture.js';
import { jsonStrings } from '../../src/verify/recorder.js';
import { requireAgent } from './pins.js';

// Gemini CLI 0.61.0 judges the launch: `gemini skills list --all`, offline, scratch HOME.

let fx: AgentFixture;
beforeEach(async () => {
  fx = await agentFixture('gemini');
});
afterEach(() => fx.done());

const list = (bin: string, cwd: string, env: Record<string, string> = {}) =>
  parseGeminiList(runAgent(bin, ['skills', 'list', '--all'], { cwd, home: fx.scratchHome, env }));

describe('Gemini CLI discovers what SkillDock launched', () => {
  it('temporary workspace: each attached skill under its name with its description, nothing else', async () => {
    const bin = requireAgent('gemini');
    const r = await fx.launch();
    expect(r.mode).toBe('native');
    const listed = list(bin, r.workspace, r.env);
    for (const s of ATTACHED) {
      const hit = listed.find((l) => l.name === s.name);
      expect(hit, `${s.name} not listed by gemini:\n${JSON.stringify(listed, null, 1)}`).toBeDefined();
      expect(hit!.description).toBe(s.description);
      expect(hit!.location).toBe(path.join(r.workspace, '.gemini/skills', s.name, 'SKILL.md'));
    }
    expect(listed.find((l) => l.name === UNATTACHED.name)).toBeUndefined();
    // The script path in SKILL.md resolves from the folder gemini loaded the skill from.
    const runner = listed.find((l) => l.name === 'xrunner')!;
    expect(runScriptFrom(path.dirname(runner.location))).toBe('x-ok from xrunner');
  });

  it('without the trust variable from the registry, the workspace skills stay hidden', async () => {
    const bin = requireAgent('gemini');
    const r = await fx.launch();
    expect(r.env).toEqual({ GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    const listed = list(bin, r.workspace, {});
    for (const s of ATTACHED) expect(listed.find((l) => l.name === s.name)).toBeUndefined();
  });

  it('include directories do not load skills (registry extraDirFlag.loadsSkills is false)', async () => {
    const bin = requireAgent('gemini');
    expect(findAgent(resources, 'gemini')!.extraDirFlag!.loadsSkills).toBe(false);
    // A skills view outside the project, handed over the way --include-directories is (settings
    // context.includeDirectories feeds the same list; `skills list` takes no such flag).
    const view = path.join(fx.sb.dir, 'view');
    for (const sub of ['.gemini/skills', '.agents/skills', 'skills']) {
      fs.mkdirSync(path.join(view, sub), { recursive: true });
      fs.symlinkSync(path.join(fx.sb.lib, 'style-guide'), path.join(view, sub, 'style-guide'));
    }
    fs.symlinkSync(path.join(fx.sb.lib, 'xrunner'), path.join(view, 'xrunner'));
    fs.mkdirSync(path.join(fx.scratchHome, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(fx.scratchHome, '.gemini', 'settings.json'), JSON.stringify({ context: { includeDirectories: [view] } }));
    const project = path.join(fx.sb.dir, 'project');
    fs.mkdirSync(project);
    const listed = list(bin, project, { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(listed.find((l) => l.name === 'style-guide')).toBeUndefined();
    expect(listed.find((l) => l.name === 'xrunner')).toBeUndefined();
  });

  it('user workspace: index mode, nothing written into the project, every skill dir usable', async () => {
    const bin = requireAgent('gemini');
    const project = path.join(fx.sb.dir, 'project');
    fs.mkdirSync(path.join(project, 'src'), { recursive: true });
    fs.writeFileSync(path.join(project, 'src', 'a.ts'), 'export const a = 1;\n');
    const before = treeHash(project);
    const r = await fx.launch(project);
    expect(treeHash(project)).toBe(before);
    expect(r.mode).toBe('index');
    expect(r.command.slice(0, 2)).toEqual(['gemini', '--include-directories']);
    for (const s of ATTACHED) {
      const dir = path.join(fx.sb.lib, s.name);
      expect(r.firstMessage).toContain(`- **${s.name}**: ${s.description} [Skill Directory: ${dir}]`);
      expect(r.command[2]!.split(',')).toContain(dir);
    }
    expect(r.firstMessage).not.toContain(UNATTACHED.name);
    // gemini itself sees none of them in the project (SkillDock wrote nothing there)
    const listed = list(bin, project, { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    for (const s of ATTACHED) expect(listed.find((l) => l.name === s.name)).toBeUndefined();
    const dir = /\*\*xrunner\*\*: .* \[Skill Directory: (.*)\]/.exec(r.firstMessage!)![1]!;
    expect(runScriptFrom(dir)).toBe('x-ok from xrunner');
  });

  it("user workspace: headless gemini runs in the user's project with the launch's env (trust for this session only), and refuses without it", async () => {
    const bin = requireAgent('gemini');
    const project = path.join(fx.sb.dir, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'README.md'), '# mine\n');
    const before = treeHash(project);
    // An API key user: gemini reads the auth choice from the user's settings.
    fs.mkdirSync(path.join(fx.scratchHome, '.gemini'), { recursive: true });
    fs.writeFileSync(
      path.join(fx.scratchHome, '.gemini', 'settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
    );
    const r = await fx.launch(project);
    const model = (url: string) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'dummy-key' });
    const args = [...r.command.slice(1), '-p', r.firstMessage!];
    const seen = await firstModelRequest(bin, args, model, { cwd: project, home: fx.scratchHome, env: r.env, timeoutMs: 90_000 });
    // The model is asked, with the first message naming each attached skill's folder.
    const sent = jsonStrings(seen.body).join('\n');
    for (const s of ATTACHED) expect(sent).toContain(`**${s.name}**`);
    // Without what the launch hands over, headless gemini stops at the trust check.
    const bare = await run(
      bin,
      args,
      {
        cwd: project,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: fx.scratchHome,
          GEMINI_API_KEY: 'dummy-key',
          GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:9',
        },
      },
      90_000,
    );
    expect(bare.status).not.toBe(0);
    expect(bare.stderr + bare.stdout).toMatch(/trusted/i);
    // Session trust writes nothing: not into the project, not into gemini's trusted-folders list.
    expect(treeHash(project)).toBe(before);
    expect(fs.existsSync(path.join(fx.scratchHome, '.gemini', 'trustedFolders.json'))).toBe(false);
  });
});
