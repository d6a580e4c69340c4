import type { McpScope } from '../contract/index.js';
import type { SkillDockService } from '../service.js';
import { lazyEngine, serveStdio, type StdioIo } from '../mcp/lean.js';
import { untilSignal } from './signals.js';
import { UsageError } from './types.js';

// `skilldock mcp` on stdio, shared by the command (src/cli/commands/mcp.ts) and its door
// (src/cli/mcp-entry.ts, which must not load node:util's parseArgs).

/** What `--assistant` / `--skill` ask to serve (UsageError when they disagree). */
export function scopeOf(values: { assistant?: string; skill?: string[] }): McpScope {
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

/**
 * Serve `scope` on stdio until the client closes its end or a signal comes. `service` loads the
 * engine (once; the same promise each call): not before the client has its answer to `initialize`,
 * so a cold start answers first. Then this server is recorded and the roots are watched, so a
 * change on disk becomes list_changed. Resolves with whether the engine was loaded.
 */
export async function runMcpStdio(scope: McpScope, service: () => Promise<SkillDockService>, io?: StdioIo): Promise<boolean> {
  let loaded = false;
  const engine = () => {
    loaded = true;
    return service();
  };
  const stdio = await serveStdio(lazyEngine(engine), scope, io);
  let initialized = false;
  const started = stdio.initialized.then(async () => {
    initialized = true;
    const s = await engine();
    const record = await s.api.mcpAnnounce({ pid: process.pid, transport: 'stdio', url: null, scope, skills: 0 }).catch(() => null);
    await s.live().catch(() => undefined);
    return { s, record };
  });
  await Promise.race([stdio.closed, untilSignal()]);
  await stdio.close();
  if (initialized) {
    // Then the caller's service.close() (the dispatcher) stops the watchers live() started.
    const { s, record } = await started.catch(() => ({ s: null, record: null }));
    if (s && record) await s.api.mcpRetire({ id: record.id }).catch(() => undefined);
  }
  return loaded;
}
