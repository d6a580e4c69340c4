import { create } from 'zustand';
import type { McpServerInfo } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

// The `skilldock mcp` servers running for this home (Settings, "Skills for MCP hosts").

interface McpState {
  servers: McpServerInfo[] | null;
  error: string | null;
  load(): Promise<void>;
}

export const useMcp = create<McpState>((set) => ({
  servers: null,
  error: null,
  async load() {
    try {
      const r = await client().api.mcpStatus({});
      set({ servers: r.servers, error: null });
    } catch (err) {
      set({ error: errorText(err) });
    }
  },
}));
