import path from 'node:path';
import { EventBus, defaultPaths } from '../context.js';
import { createServiceContext, type ServiceContext } from '../service-context.js';
import { schemaMisses, useValidationMemo } from '../store/lean.js';

// The engine without the service: a context on which a read-only command (`list`, `policy
// check-write`) creates just the domain services it asks for (`getCatalog(ctx)`), with no handler
// table, no contract schemas and no zod. What it reads is validated from the memo of earlier
// validations (src/store/lazy-schema.ts); where that memo cannot answer, `runLean` says so and the
// command runs again on the full service, which also refreshes the memo for the next start.

/** The CLI keeps its memo of validations in SkillDock's home. */
export function useCliValidationMemo(env: NodeJS.ProcessEnv = process.env): void {
  useValidationMemo(path.join(defaultPaths(env).home, 'cache', 'validated'));
}

/** `fn`'s answer on a lean context, or `{ ok: false }` when some read needed a schema not loaded. */
export async function runLean<T>(fn: (ctx: ServiceContext) => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  const ctx = createServiceContext(defaultPaths(), new EventBus());
  const before = schemaMisses();
  let value: T;
  try {
    value = await fn(ctx);
  } catch (err) {
    await ctx.close().catch(() => undefined); // the full engine runs next and redoes what is left
    if (schemaMisses() === before) throw err; // a real error, said as the full engine would say it
    return { ok: false };
  }
  await ctx.close().catch((err: unknown) => {
    if (schemaMisses() === before) throw err;
  });
  return schemaMisses() === before ? { ok: true, value } : { ok: false };
}
