// What `skilldock mcp` on stdio needs from this domain, loadable without the HTTP transport: the
// front doors' quick path (src/cli/mcp-stdio.ts, used by the stdio door src/cli/mcp-entry.ts).
export { serveStdio, type StdioIo } from './stdio.js';
export { lazyEngine } from './lazy-engine.js';
