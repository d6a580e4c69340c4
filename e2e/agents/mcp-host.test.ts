import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, type CliHarness } from '../../test/cli-harness.js';
import { writeMcpLibrary } from '../../test/support/mcp.js';
import { firstModelRequest } from './capture.js';
import { jsonStrings } from './recorder.js';
import { requireAgent } from './pins.js';

// A real MCP host: the pinned Gemini CLI with `skilldock mcp` in its settings' mcpServers, run
// offline against the loopback model-request recorder. The model request that carries the tools
// shows what the host took from the server: search_skills and load_skill (Gemini CLI 0.61.0 has no
// Skills extension; it reads resources through its own read_mcp_resource tool) and the server's
// instructions naming the skill:// resources.

let h: CliHarness;
beforeAll(async () => {
  h = await cliHarness('sd-mcp-host-');
  const lib = path.join(h.base, 'sdhome', 'library');
  fs.mkdirSync(lib, { recursive: true });
  writeMcpLibrary(lib, path.join(h.base, 'secret.md'));
}, 120_000);
afterAll(() => h.done());

describe('Gemini CLI as an MCP host of skilldock mcp', () => {
  it('starts the server over stdio and offers its tools to the model', async () => {
    const bin = requireAgent('gemini');
    const home = path.join(h.base, 'home');
    const env = h.env();
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(
      path.join(home, '.gemini', 'settings.json'),
      JSON.stringify({
        security: { auth: { selectedType: 'gemini-api-key' } },
        mcpServers: {
          skilldock: {
            command: process.execPath,
            args: [h.cli, 'mcp'],
            env: { SKILLDOCK_HOME: env.SKILLDOCK_HOME!, SKILLDOCK_RESOURCES: env.SKILLDOCK_RESOURCES!, HOME: home },
            trust: true,
            timeout: 30_000,
          },
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
