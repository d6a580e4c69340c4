import type { McpScope } from '../contract/index.js';
import type { McpEngine } from './engine.js';
import { McpSource } from './source.js';
import { MCP_VERSION } from './server.js';
import { startMcpHttp, type McpHttpServer } from './http.js';

// The MCP front door's public surface (`skilldock mcp`, the tests): one source of served skills
// per process, one SDK session on stdio or one per client over HTTP.

export { McpSource } from './source.js';
export { createSession } from './server.js';
export type { McpHttpServer } from './http.js';
export { EXTENSION_ID } from './skills-ext.js';

export async function serveHttp(
  service: McpEngine,
  scope: McpScope,
  opts: { port?: number; token?: string } = {},
): Promise<McpHttpServer & { source: McpSource }> {
  const source = new McpSource(service, scope);
  const http = await startMcpHttp(source, { ...opts, version: MCP_VERSION });
  return {
    ...http,
    source,
    async close() {
      await http.close();
      source.close();
    },
  };
}
