// src/deploy: what SkillDock keeps in agents' own skills folders (the user's, or a project's).
//
// The engine, for any scope (a set of agents and the folders each reads):
//   chooseTargets(scope, desired)        -> the folder per skill and agent (nobody lists a skill twice)
//   statusOf({scope, record})            -> every entry's state, the skill × agent matrix
//   planDeploy(scope, record, choices)   -> steps (place, replace, remove, forget, blocked, conflict)
//   applySteps(ctx, wal, {steps, ...})   -> makes them inside runJournaled (src/library/recover.ts)
// and the service (getDeploy) that runs them for the user scope, journaled, with undo.
export {
  chooseTargets,
  effectiveAgents,
  readersByFolder,
  type DeployScope,
  type ScopeAgent,
  type Desired,
  type Placement,
} from './targets.js';
export { statusOf, librarySkills, folderProblem } from './status.js';
export { planDeploy, type Plan, type PlanChoices } from './plan.js';
export { applySteps, type ApplyInput, type ApplyOutcome } from './apply.js';
export { readRecord, scopeRecord, withChange, recordFile, type DeployRecord, type ScopeRecord } from './record.js';
export { userScope, USER_SCOPE } from './scopes.js';
export { getDeploy, DeployService, JOURNAL_DEPLOY } from './service.js';
