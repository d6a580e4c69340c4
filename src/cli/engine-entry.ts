import { createService, type SkillDockService } from '../service.js';
import { corruptWarning, rolledBackWarning } from './engine-events.js';
import { useCliValidationMemo } from './lean.js';

// The engine for a door that answers before it needs one (dist/engine.mjs, next to cli.mjs and
// sharing its chunks): the MCP door (src/cli/mcp-entry.ts) loads it once its client has the answer
// to `initialize`. Opened as the full CLI opens it (the validation memo in SkillDock's home); its
// recoveries said on stderr at once, since the server runs until its host stops it.

export function openCliService(err: (line: string) => void): SkillDockService {
  useCliValidationMemo(process.env);
  const service = createService();
  service.on((e) => {
    if (e.type === 'store-corrupt') err(corruptWarning(e));
    if (e.type === 'operation-rolled-back') err(rolledBackWarning(e));
  });
  return service;
}
