import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpScope } from '../contract/index.js';
import type { McpEngine } from './engine.js';
import { LineLimit } from './line-limit.js';
import { MAX_MESSAGE_BYTES } from './limits.js';
import { McpSource } from './source.js';
import { createSession, MCP_VERSION } from './server.js';

// `skilldock mcp` on stdin/stdout, the way hosts launch servers. Kept apart from the HTTP door so
// the stdio start (src/cli/mcp-entry.ts) loads only what it needs.

export interface StdioIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  /** Where a person-readable note goes (standard error: stdout is the protocol). */
  err?: (line: string) => void;
  /** The longest message accepted (tests use a smaller one). */
  maxMessageBytes?: number;
}

export interface StdioSession {
  closed: Promise<void>;
  initialized: Promise<void>;
  close(): Promise<void>;
}

/** Serve on stdin/stdout until the client closes the stream; `closed` resolves when it has. */
export async function serveStdio(
  service: McpEngine,
  scope: McpScope,
  io: StdioIo = { stdin: process.stdin, stdout: process.stdout },
): Promise<StdioSession> {
  const source = new McpSource(service, scope);
  const server = createSession(source, MCP_VERSION);
  const max = io.maxMessageBytes ?? MAX_MESSAGE_BYTES;
  let transport!: StdioServerTransport;
  // A line over the limit is refused as JSON-RPC says (an Invalid Request error without an id:
  // none could be read) and the server goes on with the next line.
  const input = new LineLimit(max, (bytes) => {
    io.err?.(`skilldock mcp: refused a message of ${bytes} bytes on standard input (at most ${max}); the server goes on`);
    void transport
      .send({ jsonrpc: '2.0', error: { code: -32600, message: `Invalid Request: a message of ${bytes} bytes, over the limit of ${max}` } })
      .catch(() => undefined);
  });
  io.stdin.pipe(input);
  transport = new StdioServerTransport(input, io.stdout as NodeJS.WriteStream);
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  server.onclose = ((prev) => () => {
    prev?.();
    source.close();
    done();
  })(server.onclose);
  // A line that is not JSON, or JSON but no JSON-RPC message: the SDK's reader drops it and says
  // so only to onerror. JSON-RPC answers it (without an id: none could be read).
  server.onerror = ((prev) => (err: Error) => {
    prev?.(err);
    const code = err instanceof SyntaxError ? -32700 : err.name === 'ZodError' ? -32600 : null;
    if (code === null) return;
    const message = code === -32700 ? 'Parse error: a line that is not JSON' : 'Invalid Request: not a JSON-RPC message';
    void transport.send({ jsonrpc: '2.0', error: { code, message } }).catch(() => undefined);
  })(server.onerror);
  // The SDK's stdio transport does not notice the end of its input by itself.
  const onEnd = () => void server.close();
  input.once('end', onEnd);
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
      input.off('end', onEnd);
      await server.close();
      // The SDK pauses the stream it read (ours); the process's stdin must stop too, or its pipe
      // keeps the process alive after a signal.
      io.stdin.unpipe(input);
      io.stdin.pause();
    },
  };
}
