import type { SkillDockEvent } from '../contract/index.js';
import type { McpEngine } from './engine.js';

/**
 * The engine as the MCP server needs it, loaded on its first use: a cold `skilldock mcp` answers
 * `initialize` (and `tools/list`) before it has loaded the engine or read the library. Events are
 * heard from the moment it is loaded; nothing happens in the library before that which a client
 * could have been told about. A failed load is tried again on the next request.
 */
export function lazyEngine(load: () => Promise<McpEngine>): McpEngine {
  let loading: Promise<McpEngine> | null = null;
  const listeners = new Set<(event: SkillDockEvent) => void>();
  const engine = (): Promise<McpEngine> => {
    if (!loading) {
      const made = load().then((e) => {
        e.on((event) => {
          for (const fn of [...listeners]) fn(event);
        });
        return e;
      });
      made.catch(() => {
        if (loading === made) loading = null;
      });
      loading = made;
    }
    return loading;
  };
  return {
    api: {
      mcpServedSkills: async (scope) => (await engine()).api.mcpServedSkills(scope),
      mcpReadFile: async (req) => (await engine()).api.mcpReadFile(req),
    },
    on(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
