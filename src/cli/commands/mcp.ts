import { parseArgs } from 'node:util';
import type { McpScope } from '../../contract/index.js';
import { UsageError, type CliCommandModule } from '../types.js';
import { untilSignal } from '../signals.js';
import { runMcpStdio, scopeOf } from '../mcp-stdio.js';

// `skilldock mcp`: the library over the Model Context Protocol (src/mcp/). On stdio (how hosts
// launch servers) standard output is the protocol: everything for a person goes to stderr. A
// stdio start usually goes through its own door (src/cli/mcp-entry.ts), which runs the same
// `runMcpStdio` without this command table.

export interface McpArgs {
  http: boolean;
  port: number;
  json: boolean;
  scope: McpScope;
}

/** The command's options (throws UsageError or node:util's parse errors). */
export function parseMcpArgs(argv: string[]): McpArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      http: { type: 'boolean', default: false },
      port: { type: 'string' },
      json: { type: 'boolean', default: false },
      assistant: { type: 'string' },
      skill: { type: 'string', multiple: true },
    },
    strict: true,
    allowPositionals: false,
  });
  const scope = scopeOf(values);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, got "${values.port}"`);
  if (!values.http && (values.port !== undefined || values.json)) throw new UsageError('--port and --json go with --http');
  return { http: values.http, port, json: values.json, scope };
}

export const mcpCommand: CliCommandModule = {
  usage: 'skilldock mcp [--http [--port N] [--json]] [--assistant NAME | --skill NAME[,NAME...]]...',
  async run(argv, io) {
    const { http, port, json, scope } = parseMcpArgs(argv);
    if (!http) {
      await runMcpStdio(scope, async () => io.service(), { stdin: process.stdin, stdout: process.stdout, err: io.err });
      return 0;
    }
    const service = io.service();
    const { serveHttp } = await import('../../mcp/index.js');
    const server = await serveHttp(service, scope, { port });
    const served = await server.source.set().catch(() => null);
    const record = await service.api.mcpAnnounce({
      pid: process.pid,
      transport: 'http',
      url: server.url,
      scope,
      skills: served?.skills.length ?? 0,
    });
    const watching = service.live().catch(() => undefined);
    if (json) io.out(JSON.stringify({ url: server.url, tokenUrl: server.tokenUrl, port: server.port, token: server.token }));
    else {
      io.out(`SkillDock MCP server (Streamable HTTP): ${server.tokenUrl}`);
      io.out(`Or ${server.url} with the header "Authorization: Bearer ${server.token}".`);
      io.out('Listening on 127.0.0.1 only. Press Ctrl+C to stop.');
    }
    await untilSignal();
    await server.close();
    await watching;
    await service.api.mcpRetire({ id: record.id }).catch(() => undefined);
    return 0;
  },
};
