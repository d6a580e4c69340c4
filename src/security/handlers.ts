import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getAssistants } from '../assistants/service.js';
import { setGuardHooks, setScriptPolicy } from '../workspaces/script-policy.js';
import { claudeBashHook } from './launch-guard.js';
import { getSecurity } from './security-service.js';

type Keys = keyof typeof import('../contract/security.js').securityMethods;

export function securityHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const security = getSecurity(ctx);
  // Undo must know these ops in every process, not only once security was used.
  security.registerUndo();
  // Launch asks, per skill, whether its scripts may run: not approved (or "never") means linked
  // for its instructions with its scripts denied.
  setScriptPolicy(ctx, (entries) => {
    const decision = security.launchDecision(entries, { onChanged: 'skip' });
    return new Map(decision.skills.map((s) => [s.name, s.scriptsAllowed ? { allowed: true } : { allowed: false, reason: s.reason }]));
  });
  // For agents with a PreToolUse-style hook: refuse shell commands that reach denied skills' scripts.
  setGuardHooks(ctx, (entries, kind) => {
    const hook = claudeBashHook(security.launchDecision(entries, { onChanged: 'skip' }).denied, kind);
    return hook ? [hook] : [];
  });
  // Under "ask", a skill that can run code is attached only once approved (at its current digest).
  getAssistants(ctx).addAttachCheck((entries) => {
    for (const entry of entries) security.requireApproved(entry);
  });
  return {
    scanPaths: async ({ paths }) => security.scan(paths),
    getInventory: async (ref) => security.inventory(ref),
    getSkillTrust: async (ref) => security.trust(ref),
    approveSkill: async (ref) => security.approve(ref),
    revokeApproval: async ({ name }) => ({ removed: security.revoke(name) }),
    listApprovals: async () => security.list(),
    approvalDiff: async (ref) => security.diff(ref),
  };
}
