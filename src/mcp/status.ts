import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { McpServerInfo } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { pidAlive } from '../store/file-lock.js';

// Which `skilldock mcp` servers run for this home, for the app's MCP page: each server writes one
// small record under <home>/mcp-servers/ when it starts and removes it when it stops; a record whose
// process is gone (killed, crashed) is dropped the next time the list is read.

function dirOf(ctx: ServiceContext): string {
  return path.join(ctx.paths.home, 'mcp-servers');
}

export function announce(ctx: ServiceContext, info: Omit<McpServerInfo, 'id' | 'startedAt'>): McpServerInfo {
  const record: McpServerInfo = { ...info, id: `${info.pid}-${randomBytes(4).toString('hex')}`, startedAt: new Date().toISOString() };
  const dir = dirOf(ctx);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${record.id}.json`);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(record));
  fs.renameSync(tmp, file);
  return record;
}

export function retire(ctx: ServiceContext, id: string): boolean {
  if (!/^[0-9]+-[0-9a-f]{8}$/.test(id)) return false;
  try {
    fs.unlinkSync(path.join(dirOf(ctx), `${id}.json`));
    return true;
  } catch {
    return false;
  }
}

export function running(ctx: ServiceContext): McpServerInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync(dirOf(ctx));
  } catch {
    return [];
  }
  const out: McpServerInfo[] = [];
  for (const name of names.filter((n) => /^[0-9]+-[0-9a-f]{8}\.json$/.test(n)).slice(0, 200)) {
    let rec: McpServerInfo;
    try {
      rec = JSON.parse(fs.readFileSync(path.join(dirOf(ctx), name), 'utf8')) as McpServerInfo;
    } catch {
      continue;
    }
    if (typeof rec.pid === 'number' && pidAlive(rec.pid)) out.push(rec);
    else retire(ctx, name.slice(0, -5));
  }
  return out.sort((a, b) => (a.startedAt < b.startedAt ? -1 : 1));
}
