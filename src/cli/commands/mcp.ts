import { parseArgs } from 'node:util';
import type { McpScope } from '../../contract/index.js';
import { UsageError, type CliCommandModule } from '../types.js';
import { untilSignal } from '../signals.js';

// `skilldock mcp`: the library over the Model Context Protocol (src/mcp/). On stdio (how hosts
// launch servers) standard output is the protocol: everything for a person goes to stderr.

function scopeOf(values: { assistant?: string; skill?: string[] }): McpScope {
  if (values.assistant !== undefined && values.skill?.length) throw new UsageError('give --assistant or --skill, not both');
  if (values.assistant !== undefined) {
    if (!values.assistant.trim()) throw new UsageError('--assistant needs a name');
    return { assistant: values.assistant };
  }
  const skills = (values.skill ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return skills.length ? { skills } : {};
}

export const mcpCommand: CliCommandModule = {
  usage: 'skilldock mcp [--http [--port N] [--json]] [--assistant NAME | --skill NAME[,NAME...]]...',
  async run(argv, io) {
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

    const service = io.service();
    const { serveHttp, serveStdio } = await import('../../mcp/index.js');
    if (!values.http) {
      const stdio = await serveStdio(service, scope);
      // After the handshake (a cold start answers `initialize` first): record this server and
      // watch the roots, so a change on disk becomes list_changed.
      const started = Promise.race([stdio.initialized, stdio.closed]).then(async () => {
        const record = await service.api
          .mcpAnnounce({ pid: process.pid, transport: 'stdio', url: null, scope, skills: 0 })
          .catch(() => null);
        await service.live().catch(() => undefined);
        return record;
      });
      await Promise.race([stdio.closed, untilSignal()]);
      await stdio.close();
      const record = await started; // then service.close() (the dispatcher) stops the watchers it started
      if (record) await service.api.mcpRetire({ id: record.id }).catch(() => undefined);
      return 0;
    }
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
    if (values.json) io.out(JSON.stringify({ url: server.url, tokenUrl: server.tokenUrl, port: server.port, token: server.token }));
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
