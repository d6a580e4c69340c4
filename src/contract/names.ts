import type { MethodName, SkillDockEvent } from './index.js';

// The contract's method names and event types as plain strings, for clients that must not load
// zod and the schemas to know them (the renderer's first script: the HTTP and IPC clients).
// names.test.ts checks them against `methods` and `EventSchema`; a new method or event fails it
// until it is added here too.

export const METHOD_NAMES = [
  'listRoots',
  'listCatalog',
  'getSkill',
  'activateSkill',
  'lintPaths',
  'agentView',
  'refreshCatalog',
  'watchCatalog',
  'importPaths',
  'listLibrary',
  'listAdoptable',
  'adoptSkills',
  'deleteSkill',
  'listTrash',
  'restoreSkill',
  'exportSkill',
  'undo',
  'redo',
  'journal',
  'doctor',
  'listAssistants',
  'getAssistant',
  'createAssistant',
  'updateAssistant',
  'attachSkills',
  'detachSkills',
  'duplicateAssistant',
  'deleteAssistant',
  'listAgents',
  'launchAssistant',
  'openInTerminal',
  'listWorkspaces',
  'cleanWorkspaces',
  'resolveStateUri',
  'checkWrite',
  'scanPaths',
  'listSkillRisks',
  'getInventory',
  'getSkillTrust',
  'approveSkill',
  'revokeApproval',
  'listApprovals',
  'approvalDiff',
  'listTrustFiles',
  'confirmTrustFile',
  'getSettings',
  'updateSettings',
  'exportTargets',
  'listSkillFiles',
  'readSkillFile',
  'lintSkillBuffer',
  'scanSkillBuffer',
  'saveSkillFile',
  'renameSkillPath',
  'deleteSkillPath',
  'createSkillFolder',
  'checkSkillName',
  'createSkill',
  'addFromSource',
  'checkSources',
  'listProvenance',
  'updateSkills',
  'pinSkill',
  'unpinSkill',
  'exportAssistant',
  'importAssistant',
  'skillOrigin',
  'planProjectDeploy',
  'applyProjectDeploy',
  'installProject',
] as const satisfies readonly MethodName[];

export const EVENT_TYPES = [
  'catalog-changed',
  'library-changed',
  'import-progress',
  'store-corrupt',
  'operation-rolled-back',
  'assistants-changed',
  'conversation-launched',
  'workspaces-cleaned',
  'approval-changed',
  'settings-changed',
] as const satisfies readonly SkillDockEvent['type'][];

const eventTypes: ReadonlySet<string> = new Set(EVENT_TYPES);

/** An engine event by its shape (an object with a known `type`); the engine is the only sender. */
export function isEngineEvent(v: unknown): v is SkillDockEvent {
  return typeof v === 'object' && v !== null && eventTypes.has((v as { type?: unknown }).type as string);
}
