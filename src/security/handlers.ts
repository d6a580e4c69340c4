import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getAssistants } from '../assistants/service.js';
import { getSecurity } from './security-service.js';
import { SkillDockError } from '../errors.js';

type Keys = keyof typeof import('../contract/security.js').securityMethods;

export function securityHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const security = getSecurity(ctx);
  // Undo must know these ops in every process, not only once security was used.
  security.registerUndo();
  // Launch (src/workspaces/service.ts) asks `security.launchDecision` itself, once per launch.
  // Under "ask", a skill that can run code is attached only once approved (at its current digest).
  getAssistants(ctx).addAttachCheck((entries) =>
    entries.flatMap((entry) => {
      try {
        security.requireApproved(entry);
        return [];
      } catch (err) {
        if (!(err instanceof SkillDockError) || err.code !== 'refused') throw err;
        const status = (err.details as { status?: unknown } | undefined)?.status;
        return [{ entry, status: typeof status === 'string' ? status : 'unapproved', error: err }];
      }
    }),
  );
  return {
    scanPaths: async ({ paths }) => security.scan(paths),
    listSkillRisks: (query) => security.catalogRisks(query),
    getInventory: async (ref) => security.inventory(ref),
    getSkillTrust: async (ref) => security.trust(ref),
    approveSkill: async (ref) => security.approve(ref),
    approveSkills: async (input) => security.approveMany(input),
    revokeApproval: async ({ name }) => ({ removed: await security.revoke(name) }),
    listApprovals: async () => security.list(),
    approvalDiff: async (ref) => security.diff(ref),
    listTrustFiles: async () => security.trustFiles(),
    confirmTrustFile: async ({ file }) => security.confirmTrustFile(file),
  };
}
