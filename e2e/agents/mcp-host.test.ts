import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, type CliHarness } from '../../test/cli-harness.js';
import { writeMcpLibrary } from '../../test/support/mcp.js';
import { baseEnv, codexArgs, firstModelRequest, run } from './capture.js';
import { codexScript, codexToolResult } from './model-script.js';
import { jsonStrings, startRecorder, type Recorded } from '../../src/verify/recorder.js';
import { requireAgent } from './pins.js';

// Real MCP hosts: the pinned Gemini CLI (`skilldock mcp` in its settings' mcpServers) and Codex
// (below), run offline against the loopback model-request recorder. For Gemini CLI, the model
// request that carries the tools shows what the host took from the server: search_skills and
// load_skill (Gemini CLI 0.61.0 has no Skills extension; it reads resources through its own
// read_mcp_resource tool) and the server's instructions naming the skill:// resources.

let h: CliHarness;
beforeAll(async () => {
  h = await cliHarness('sd-mcp-host-');
  const lib = path.join(h.base, 'sdhome', 'library');
  fs.mkdirSync(lib, { recursive: true });
  writeMcpLibrary(lib, path.join(h.base, 'secret.md'));
}, 120_000);
afterAll(() => h.done());

/**
 * A scratch HOME for a host, with its configuration (at `rel`) made by `config` from the server's
 * environment (this test's SkillDock home and resources, HOME the host's).
 */
function hostHome(name: string, rel: string, config: (env: Record<string, string>) => string): string {
  const home = path.join(h.base, name);
  const env = h.env();
  const file = path.join(home, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, config({ SKILLDOCK_HOME: env.SKILLDOCK_HOME!, SKILLDOCK_RESOURCES: env.SKILLDOCK_RESOURCES!, HOME: home }));
  return home;
}

describe('Gemini CLI as an MCP host of skilldock mcp', () => {
  it('starts the server over stdio and offers its tools to the model', async () => {
    const bin = requireAgent('gemini');
    const home = hostHome('home', '.gemini/settings.json', (env) =>
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        mcpServers: {
          skilldock: { command: process.execPath, args: [h.cli, 'mcp'], env, trust: true, timeout: 30_000 },
        },
      }),
    );
    const project = path.join(h.base, 'project');
    fs.mkdirSync(project, { recursive: true });
    const seen = await firstModelRequest(
      bin,
      ['-p', 'Which skills do you have?'],
      (url) => ({ GOOGLE_GEMINI_BASE_URL: url, GEMINI_API_KEY: 'dummy-key' }),
      {
        cwd: project,
        home,
        env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
        timeoutMs: 120_000,
        // The request that carries the tools (gemini may first ask a routing model, without them).
        match: (body) => JSON.stringify(body).includes('functionDeclarations'),
      },
    );
    const body = seen.body as { tools?: Array<{ functionDeclarations?: Array<{ name: string; description?: string }> }> };
    const tools = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []);
    // Gemini CLI 0.61.0 names a server's tools mcp_<server>_<tool>, and adds its resource tools.
    const search = tools.find((t) => t.name === 'mcp_skilldock_search_skills');
    expect(search?.description).toContain('Search the Agent Skills that SkillDock serves');
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['mcp_skilldock_load_skill', 'read_mcp_resource', 'list_mcp_resources']),
    );
    // The server's instructions reach the model, naming where the skills are.
    expect(jsonStrings(seen.body).join('\n')).toContain("SkillDock serves the user's Agent Skills");
  });
});

/** What the exec script below printed, from the request that carries its output back to the model. */
function execOutput(requests: Recorded[]): Record<string, { structuredContent?: Record<string, unknown> }> {
  const carried = requests.map((q) => codexToolResult(q)).find((x) => x !== null);
  expect(carried, 'Codex sent no exec output back').toBeTruthy();
  const items = JSON.parse(carried!) as Array<{ text?: string }>;
  const printed = items.map((i) => i.text ?? '').find((t) => t.startsWith('{'));
  expect(printed, carried!).toBeDefined();
  return JSON.parse(printed!) as Record<string, { structuredContent?: Record<string, unknown> }>;
}

// Codex 0.171.0 with `skilldock mcp` in its config.toml's mcp_servers. It defers MCP tools: its model
// sees the server as a tool namespace described by the server's instructions, and calls its tools
// from the one `exec` tool (code mode). The scripted model makes one exec call that searches and
// loads skills through SkillDock; the next model request carries what the server answered.
describe('Codex as an MCP host of skilldock mcp', () => {
  it('starts the server over stdio, names it to the model, and loads skills through it', async () => {
    const bin = requireAgent('codex');
    const toml = (v: string) => JSON.stringify(v);
    const home = hostHome('codex-home', '.codex/config.toml', (env) =>
      [
        '[mcp_servers.skilldock]',
        `command = ${toml(process.execPath)}`,
        `args = [${toml(h.cli)}, "mcp"]`,
        'startup_timeout_sec = 60',
        `env = { ${Object.entries(env)
          .map(([k, v]) => `${k} = ${toml(v)}`)
          .join(', ')} }`,
        '',
      ].join('\n'),
    );
    const project = path.join(h.base, 'codex-project');
    fs.mkdirSync(project, { recursive: true });
    const js = [
      "const found = await tools.mcp__skilldock__search_skills({ query: 'hello' });",
      "const hello = await tools.mcp__skilldock__load_skill({ name: 'hello' });",
      "const tool = await tools.mcp__skilldock__load_skill({ name: 'tool' });",
      'text(JSON.stringify({ found, hello, tool }));',
    ].join('\n');
    const rec = await startRecorder(codexScript(js));
    let r: Awaited<ReturnType<typeof run>>;
    try {
      r = await run(
        bin,
        codexArgs(rec.url, 'Load the hello skill.'),
        { cwd: project, env: { ...baseEnv(home), OPENAI_API_KEY: 'recorded' } },
        150_000,
      );
    } finally {
      await rec.close();
    }
    const first = rec.requests.find((q) => q.url.endsWith('/responses'));
    expect(first, `no model request (exit ${r.status}):\n${r.stderr.slice(-3000)}`).toBeDefined();
    // The server's instructions (from its answer to initialize) describe its tool namespace.
    expect(jsonStrings(JSON.parse(first!.body)).join('\n')).toContain("mcp__skilldock: SkillDock serves the user's Agent Skills");
    const out = execOutput(rec.requests);
    const results = out.found?.structuredContent?.results as Array<{ name: string }> | undefined;
    expect(results?.map((x) => x.name)).toContain('hello');
    expect(out.hello?.structuredContent).toMatchObject({ name: 'hello', files: ['assets/logo.png', 'references/guide.md'] });
    expect(String(out.hello?.structuredContent?.body)).toContain('Read [the guide](references/guide.md).');
    // Trust travels: the unapproved script is withheld from what Codex got.
    expect(out.tool?.structuredContent).toMatchObject({ name: 'tool', withheld: ['scripts/run.py'] });
    expect(out.tool?.structuredContent?.files).not.toContain('scripts/run.py');
  });
});
