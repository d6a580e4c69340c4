import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpScope } from '../contract/index.js';
import type { McpEngine } from './engine.js';
import { McpSource } from './source.js';
import { createSession } from './server.js';
import { startMcpHttp, type McpHttpServer } from './http.js';

// The MCP front door's public surface (`skilldock mcp`, the tests): one source of served skills
// per process, one SDK session on stdio or one per client over HTTP.

export { McpSource } from './source.js';
export { createSession } from './server.js';
export type { McpHttpServer } from './http.js';
export { EXTENSION_ID } from './skills-ext.js';

export const MCP_VERSION = '0.1.0';

/** Serve on stdin/stdout until the client closes the stream; resolves when it has. */
export async function serveStdio(
  service: McpEngine,
  scope: McpScope,
  io: { stdin: NodeJS.ReadableStream; stdout: NodeJS.WritableStream } = { stdin: process.stdin, stdout: process.stdout },
): Promise<{ closed: Promise<void>; initialized: Promise<void>; close(): Promise<void> }> {
  const source = new McpSource(service, scope);
  const server = createSession(source, MCP_VERSION);
  const transport = new StdioServerTransport(io.stdin as NodeJS.ReadStream, io.stdout as NodeJS.WriteStream);
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  server.onclose = ((prev) => () => {
    prev?.();
    source.close();
    done();
  })(server.onclose);
  // The SDK's stdio transport does not notice the end of its input by itself.
  const onEnd = () => void server.close();
  io.stdin.once('end', onEnd);
  await server.connect(transport);
  const initialized = new Promise<void>((resolve) => {
    const prev = server.oninitialized;
    server.oninitialized = () => {
      prev?.();
      resolve();
    };
  });
  return {
    closed,
    initialized,
    async close() {
      io.stdin.off('end', onEnd);
      await server.close();
    },
  };
}

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
