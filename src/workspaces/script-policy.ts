import type { CatalogEntry } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';

// SEAM for the security work: which attached skills may run their scripts in a conversation.
// Launch calls `scriptPolicyFor` once per launch; a skill answered `allowed: false` is still linked
// (its instructions stay readable) but the launch reports it and the context file tells the agent
// not to run its scripts. Until security provides its verdicts, every skill is allowed.

export interface ScriptVerdict {
  allowed: boolean;
  /** Shown to the user and written into the context file when not allowed. */
  reason?: string;
}

export type ScriptPolicy = (entries: CatalogEntry[]) => Map<string, ScriptVerdict>;

const KEY = 'workspaces.scriptPolicy';

/** Security registers its policy here (e.g. from its service constructor). */
export function setScriptPolicy(ctx: ServiceContext, policy: ScriptPolicy): void {
  ctx.use<{ policy: ScriptPolicy }>(KEY, () => ({ policy: allowAll })).policy = policy;
}

export function scriptPolicyFor(ctx: ServiceContext, entries: CatalogEntry[]): Map<string, ScriptVerdict> {
  return ctx.use<{ policy: ScriptPolicy }>(KEY, () => ({ policy: allowAll })).policy(entries);
}

function allowAll(entries: CatalogEntry[]): Map<string, ScriptVerdict> {
  return new Map(entries.map((e) => [e.name, { allowed: true }]));
}
