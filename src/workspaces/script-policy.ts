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

/** One PreToolUse matcher group, as the agent's settings file holds it. */
export interface GuardHookGroup {
  matcher: string;
  hooks: Array<{ type: 'command'; command: string; timeout: number }>;
}

/** Extra hook groups for the write guard of agent kind `kind` (e.g. security's Bash guard for denied scripts). */
export type GuardHooks = (entries: CatalogEntry[], kind: string) => GuardHookGroup[];

const HOOKS_KEY = 'workspaces.guardHooks';

/** SEAM: security registers hooks that go into the same settings file as the write guard. */
export function setGuardHooks(ctx: ServiceContext, hooks: GuardHooks): void {
  ctx.use<{ hooks: GuardHooks }>(HOOKS_KEY, () => ({ hooks: () => [] })).hooks = hooks;
}

export function guardHooksFor(ctx: ServiceContext, entries: CatalogEntry[], kind: string): GuardHookGroup[] {
  return ctx.use<{ hooks: GuardHooks }>(HOOKS_KEY, () => ({ hooks: () => [] })).hooks(entries, kind);
}
