import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpScope } from '../contract/index.js';
import { securityEnv, writeSkill, type SecurityEnv } from '../../test/support/security.js';
import { Loose, errorCode, listSkills, readBytes, sha256, writeMcpLibrary } from '../../test/support/mcp.js';
import { waitFor } from '../../test/support/wait.js';
import { McpSource, createSession, EXTENSION_ID } from './index.js';

// The MCP front door in process, through the official SDK's client: the Skills extension
// (SEP-2640) over a real library on temp dirs, trust (unapproved scripts withheld, links out never
// read), hostile URIs, tools and prompts, and list_changed after an import.

let env: SecurityEnv;
let lib: string;
let outside: string;
const open: Array<{ client: Client; source: McpSource }> = [];

beforeEach(() => {
  env = securityEnv();
  lib = path.join(env.home, 'library');
  outside = path.join(env.dir, 'secret.md');
  writeMcpLibrary(lib, outside);
});
afterEach(async () => {
  for (const { client, source } of open.splice(0)) {
    await client.close();
    source.close();
  }
  await env.cleanup();
});

async function connect(scope: McpScope = {}): Promise<Client> {
  const source = new McpSource(env.service, scope);
  const server = createSession(source, 'test');
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'mcp-test', version: '1' });
  await client.connect(b);
  open.push({ client, source });
  return client;
}

describe('Skills extension', () => {
  it('declares the extension and lists every skill with complete, correct digests', async () => {
    const client = await connect();
    const caps = client.getServerCapabilities() as { extensions?: Record<string, unknown> };
    expect(caps.extensions?.[EXTENSION_ID]).toEqual({ directoryRead: true });
    const skills = await listSkills(client);
    expect(skills.map((s) => s.uri).sort()).toEqual(['skill://hello/SKILL.md', 'skill://leaky/SKILL.md', 'skill://tool/SKILL.md']);
    const hello = skills.find((s) => s.uri === 'skill://hello/SKILL.md')!;
    expect(hello.frontmatter).toEqual({ name: 'hello', description: 'Test skill hello.' });
    expect(hello.resources.map((r) => r.uri).sort()).toEqual([
      'skill://hello/SKILL.md',
      'skill://hello/assets/logo.png',
      'skill://hello/references/guide.md',
    ]);
    // Every listed file reads back with the digest the listing promised (text and binary alike).
    for (const s of skills) {
      for (const r of s.resources) expect(sha256(await readBytes(client, r.uri)), r.uri).toBe(r.digest);
    }
    const raw = (await client.request({ method: 'skills/list', params: {} }, Loose)) as { ttlMs: number; cacheScope: string };
    expect(raw.ttlMs).toBeGreaterThanOrEqual(0);
    expect(raw.cacheScope).toBe('private');
  });

  it('answers skills/get for a served skill and -32602 for anything else', async () => {
    const client = await connect();
    const got = (await client.request({ method: 'skills/get', params: { uri: 'skill://hello/SKILL.md' } }, Loose)) as {
      skill: { uri: string; resources: unknown[] };
    };
    expect(got.skill.uri).toBe('skill://hello/SKILL.md');
    expect(got.skill.resources).toHaveLength(3);
    for (const uri of ['skill://nope/SKILL.md', 'skill://hello/references/guide.md', 'https://example.com/SKILL.md']) {
      expect(await errorCode(client.request({ method: 'skills/get', params: { uri } }, Loose)), uri).toBe(-32602);
    }
  });

  it('lists directories with resources/directory/read and serves the earlier drafts’ index', async () => {
    const client = await connect();
    const root = (await client.request({ method: 'resources/directory/read', params: { uri: 'skill://hello' } }, Loose)) as {
      resources: Array<{ uri: string; mimeType: string }>;
    };
    expect(root.resources).toEqual([
      expect.objectContaining({ uri: 'skill://hello/SKILL.md', mimeType: 'text/markdown' }),
      { uri: 'skill://hello/assets', name: 'assets', mimeType: 'inode/directory' },
      { uri: 'skill://hello/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    const refs = (await client.request({ method: 'resources/directory/read', params: { uri: 'skill://hello/references' } }, Loose)) as {
      resources: Array<{ uri: string }>;
    };
    expect(refs.resources.map((r) => r.uri)).toEqual(['skill://hello/references/guide.md']);
    expect(await errorCode(client.request({ method: 'resources/directory/read', params: { uri: 'skill://hello/nope' } }, Loose))).toBe(
      -32602,
    );
    const index = JSON.parse((await readBytes(client, 'skill://index.json')).toString()) as {
      skills: Array<{ name: string; url: string }>;
    };
    expect(index.skills.map((s) => s.url).sort()).toEqual(['skill://hello/SKILL.md', 'skill://leaky/SKILL.md', 'skill://tool/SKILL.md']);
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain('skill://index.json');
    expect(listed.resources.find((r) => r.uri === 'skill://hello/SKILL.md')).toMatchObject({
      name: 'hello',
      description: 'Test skill hello.',
    });
  });
});

describe('trust', () => {
  it('withholds unapproved scripts with the reason in _meta, and serves them once approved', async () => {
    const client = await connect();
    const tool = (await listSkills(client)).find((s) => s.uri === 'skill://tool/SKILL.md')!;
    expect(tool.resources.map((r) => r.uri).sort()).toEqual(['skill://tool/SKILL.md', 'skill://tool/notes.md']);
    const trust = tool._meta!['io.skilldock/trust'];
    expect(trust.status).toBe('unapproved');
    expect(trust.withheld).toEqual(['scripts/run.py']);
    expect(trust.reason).toMatch(/not approved/);
    expect(await errorCode(client.readResource({ uri: 'skill://tool/scripts/run.py' }))).toBe(-32602);

    let changed = 0;
    const updated: string[] = [];
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed++);
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'skill://tool/scripts/run.py' });
    await client.subscribeResource({ uri: 'skill://hello/SKILL.md' });
    await env.service.api.approveSkill({ name: 'tool' });
    await waitFor(() => changed > 0 && updated.length > 0, { timeoutMs: 10_000 });
    // The script became served; hello did not change.
    expect(updated).toEqual(['skill://tool/scripts/run.py']);
    const approved = (await listSkills(client)).find((s) => s.uri === 'skill://tool/SKILL.md')!;
    expect(approved.resources.map((r) => r.uri)).toContain('skill://tool/scripts/run.py');
    expect((await readBytes(client, 'skill://tool/scripts/run.py')).toString()).toBe('print("hi")\n');
  });

  it('hides an unapproved skill entirely when the user chose "hide"', async () => {
    await env.service.api.updateSettings({ mcpUnapproved: 'hide' });
    const client = await connect();
    expect((await listSkills(client)).map((s) => s.uri)).not.toContain('skill://tool/SKILL.md');
    expect(await errorCode(client.readResource({ uri: 'skill://tool/SKILL.md' }))).toBe(-32602);
  });

  it('never reads a link that leaves the skill folder', async () => {
    const client = await connect();
    const leaky = (await listSkills(client)).find((s) => s.uri === 'skill://leaky/SKILL.md')!;
    expect(leaky.resources.map((r) => r.uri)).toEqual(['skill://leaky/SKILL.md']);
    expect(leaky._meta!['io.skilldock/trust'].withheld).toEqual(['refs/secret.md']);
    expect(await errorCode(client.readResource({ uri: 'skill://leaky/refs/secret.md' }))).toBe(-32602);
    const all = await client.listResources();
    expect(all.resources.map((r) => r.uri)).not.toContain('skill://leaky/refs/secret.md');
    const loaded = await client.callTool({ name: 'load_skill', arguments: { name: 'leaky' } });
    expect(JSON.stringify(loaded)).not.toContain('TOP SECRET');
  });
});

describe('hostile requests', () => {
  it('refuses traversal, encoded separators and out-of-scope skills, and keeps answering', async () => {
    const client = await connect({ skills: ['hello'] });
    expect((await listSkills(client)).map((s) => s.uri)).toEqual(['skill://hello/SKILL.md']);
    const bad = [
      'skill://hello/../tool/SKILL.md',
      'skill://hello/references/..%2F..%2Ftool%2FSKILL.md',
      'skill://hello/%2e%2e/tool/SKILL.md',
      'skill://hello/references%2Fguide.md',
      'skill://hello/references%5Cguide.md',
      'skill://hello//SKILL.md',
      'skill://hello/%E0%A4%A',
      'skill://tool/SKILL.md',
      'skill://leaky/refs/secret.md',
      `skill://hello/${'a/'.repeat(3000)}x`,
      'file:///etc/passwd',
    ];
    for (const uri of bad) expect(await errorCode(client.readResource({ uri })), uri).toBe(-32602);
    expect(await errorCode(client.request({ method: 'skills/nope', params: {} }, Loose))).toBe(-32601);
    expect(await errorCode(client.request({ method: 'skills/list', params: { cursor: 'zzz' } }, Loose))).toBe(-32602);
    expect(await errorCode(client.request({ method: 'skills/get', params: {} }, Loose))).toBe(-32602);
    await client.ping();
    expect((await readBytes(client, 'skill://hello/references/guide.md')).toString()).toBe('# Guide\n\nBe kind.\n');
  });

  it('answers for a skill deleted mid-read with an error, then lists without it', async () => {
    const client = await connect();
    await listSkills(client);
    fs.rmSync(path.join(lib, 'hello'), { recursive: true });
    expect(await errorCode(client.readResource({ uri: 'skill://hello/references/guide.md' }))).toBe(-32602);
    await env.service.api.refreshCatalog({});
    await waitFor(async () => !(await listSkills(client)).some((s) => s.uri === 'skill://hello/SKILL.md'), { timeoutMs: 10_000 });
  });
});

describe('scopes, tools and prompts', () => {
  it("serves one assistant's skills", async () => {
    await env.service.api.createAssistant({ name: 'Writer', agent: 'claude', skills: ['hello'] });
    const client = await connect({ assistant: 'Writer' });
    expect((await listSkills(client)).map((s) => s.uri)).toEqual(['skill://hello/SKILL.md']);
  });

  it('search_skills and load_skill work for hosts without the extension; one prompt per skill', async () => {
    const client = await connect();
    const found = await client.callTool({ name: 'search_skills', arguments: { query: 'hello' } });
    const results = (found.structuredContent as { results: Array<{ name: string; score: number }> }).results;
    expect(results[0]).toMatchObject({ name: 'hello' });
    expect(results[0].score).toBeGreaterThan(0);
    const loaded = await client.callTool({ name: 'load_skill', arguments: { name: 'hello' } });
    const sc = loaded.structuredContent as { body: string; files: string[] };
    expect(sc.body).toContain('Read [the guide](references/guide.md)');
    expect(sc.files).toEqual(['assets/logo.png', 'references/guide.md']);
    const missing = await client.callTool({ name: 'load_skill', arguments: { name: 'nope' } });
    expect(missing.isError).toBe(true);
    const prompts = await client.listPrompts();
    expect(prompts.prompts.map((p) => p.name).sort()).toEqual(['hello', 'leaky', 'tool']);
    const p = await client.getPrompt({ name: 'tool' });
    expect(JSON.stringify(p.messages)).toContain('Do not run its scripts');
  });
});

describe('list changes', () => {
  it('sends resources/list_changed after an import and lists the new skill', async () => {
    const client = await connect();
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed++);
    const src = path.join(env.dir, 'incoming');
    writeSkill(src, 'fresh', '# Fresh\n');
    await env.service.api.importPaths({ paths: [path.join(src, 'fresh')] });
    await waitFor(() => changed > 0, { timeoutMs: 10_000 });
    expect((await listSkills(client)).map((s) => s.uri)).toContain('skill://fresh/SKILL.md');
  });
});
