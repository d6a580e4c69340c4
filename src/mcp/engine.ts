import type { Api, SkillDockEvent } from '../contract/index.js';

/** What the MCP front door needs of the engine (the service, in every real use). */
export interface McpEngine {
  api: Pick<Api, 'mcpServedSkills' | 'mcpReadFile'>;
  on(listener: (event: SkillDockEvent) => void): () => void;
}
