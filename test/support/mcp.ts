import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { writeSkill } from './security.js';

// Shared by the MCP tests (src/mcp/*.test.ts, e2e/agents/mcp-host.test.ts): a small library with
// every case the server must handle, and the Skills extension calls made through the SDK client.

export const Loose = z.object({}).passthrough();

export interface SkillEntryJson {
  uri: string;
  frontmatter: Record<string, unknown>;
  resources: Array<{ uri: string; digest: string }>;
  _meta?: Record<string, { status: string; withheld: string[]; reason: string | null }>;
}

/**
 * `hello`: instructions and a reference; `tool`: a script that is not approved; `leaky`: a link to
 * a file outside its folder. `outsideFile` is that file's path (it must never be served).
 */
export function writeMcpLibrary(lib: string, outsideFile: string): void {
  fs.writeFileSync(outsideFile, 'TOP SECRET\n');
  writeSkill(lib, 'hello', '# Hello\n\nRead [the guide](references/guide.md).\n', {
    'references/guide.md': '# Guide\n\nBe kind.\n',
    'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
  });
  writeSkill(lib, 'tool', '# Tool\n\n```bash\npython scripts/run.py x\n```\n', {
    'scripts/run.py': 'print("hi")\n',
    'notes.md': 'notes\n',
  });
  writeSkill(lib, 'leaky', '# Leaky\n\nSee refs/secret.md\n');
  fs.mkdirSync(path.join(lib, 'leaky', 'refs'));
  fs.symlinkSync(outsideFile, path.join(lib, 'leaky', 'refs', 'secret.md'));
}

export function sha256(bytes: Buffer | string): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export async function listSkills(client: Client): Promise<SkillEntryJson[]> {
  const out: SkillEntryJson[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = (await client.request({ method: 'skills/list', params: cursor ? { cursor } : {} }, Loose)) as {
      skills: SkillEntryJson[];
      nextCursor?: string;
    };
    out.push(...r.skills);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** The bytes of a resource as read over MCP (text or base64 blob). */
export async function readBytes(client: Client, uri: string): Promise<Buffer> {
  const r = await client.readResource({ uri });
  const c = r.contents[0] as { text?: string; blob?: string };
  return c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.blob!, 'base64');
}

/** The JSON-RPC error code of a failed call (or null when it succeeded). */
export async function errorCode(p: Promise<unknown>): Promise<number | null> {
  try {
    await p;
    return null;
  } catch (err) {
    return (err as { code?: number }).code ?? -1;
  }
}
