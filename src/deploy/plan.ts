import type { MessageRef } from '../contract/index.js';
import type { DeployEntry, DeployStep } from './types.js';
import type { ScopeRecord } from './record.js';
import type { DeployScope, Placement } from './targets.js';
import { folderProblem, statusOf, wantedPlacements, librarySkills } from './status.js';

// From what is on disk to what the user chose: one step per entry. SkillDock replaces or removes
// only what it placed and still finds as it left it; anything else (a foreign entry at the path it
// needs, a copy edited in place) stops that one entry until the user names it in a choice.

export interface PlanChoices {
  /** Foreign entries (paths) the user chose to have replaced (moved to SkillDock's trash first). */
  take?: string[];
  /** Copies edited in place (paths) to put back to the library's version (the edit is kept in the trash). */
  restore?: string[];
  /** Hash every copy (repair), not only those whose SKILL.md changed. */
  deep?: boolean;
}

export interface Plan {
  steps: DeployStep[];
  alsoOn: Record<string, string[]>;
  /** Wanted placements by path (what `place` and `replace` steps make). */
  wanted: Map<string, Placement>;
}

/**
 * The steps that make the scope's folders match `record.desired` (the record as it will be after
 * this apply). `only`: limit to these skills (a deploy of one skill does not repair the others).
 */
export function planDeploy(scope: DeployScope, record: ScopeRecord, choices: PlanChoices = {}, only?: Set<string>): Plan {
  const library = librarySkills(scope.libraryDir);
  const status = statusOf({ scope, record, library, deep: !!choices.deep });
  const { placements, alsoOn, unplaceable } = wantedPlacements(scope, record.desired, library);
  const wanted = new Map(placements.map((p) => [p.path, p]));
  const take = new Set(choices.take ?? []);
  const restore = new Set(choices.restore ?? []);
  const problems = new Map(status.folders.map((f) => [f.path, f.problem]));
  const steps: DeployStep[] = [];
  const step = (s: DeployStep) => {
    if (!only || only.has(s.skill)) steps.push(s);
  };
  const onDisk = new Map(status.entries.filter((e) => e.kind !== 'none').map((e) => [e.path, e]));
  for (const w of placements) {
    const base = { path: w.path, skill: w.skill, folder: w.folder, mode: w.mode, agents: w.readers };
    const problem = problems.has(w.folder) ? problems.get(w.folder)! : folderProblem(w.folder, w.readers);
    const e = onDisk.get(w.path);
    const rec = record.placed[w.path];
    if (e === undefined) {
      if (problem) step({ ...base, action: 'blocked', why: problem });
      else step({ ...base, action: 'place' });
      continue;
    }
    if (rec && (e.state === 'in-sync' || e.state === 'shadowed' || e.state === 'duplicate') && rec.mode === w.mode) continue;
    if (problem) {
      step({ ...base, action: 'blocked', why: problem });
      continue;
    }
    const why = replaceWhy(e, rec !== undefined, w, take, restore);
    if (why.ok) step({ ...base, action: 'replace', why: why.msg });
    else step({ ...base, action: why.conflict ? 'conflict' : 'blocked', why: why.msg });
  }
  for (const [skill, agents] of Object.entries(unplaceable)) {
    step({
      action: 'blocked',
      path: '',
      skill,
      folder: '',
      agents,
      why: { key: 'deploy.read-twice-unavoidable', params: { skill, agents } },
    });
  }
  for (const [p, rec] of Object.entries(record.placed)) {
    if (wanted.has(p)) continue;
    const e = onDisk.get(p);
    const base = {
      path: p,
      skill: rec.skill,
      folder: rec.folder,
      mode: rec.mode,
      agents: status.folders.find((f) => f.path === rec.folder)?.agents ?? [],
    };
    if (!e) step({ ...base, action: 'forget' });
    else if (e.reason === 'edited') {
      if (restore.has(p) || take.has(p)) step({ ...base, action: 'remove' });
      else step({ ...base, action: 'conflict', why: { key: 'deploy.edited-copy', params: { path: p, skill: rec.skill } } });
    } else if (e.reason === 'link-elsewhere' || e.reason === 'replaced') step({ ...base, action: 'forget' });
    else {
      const problem = problems.get(rec.folder);
      step(problem ? { ...base, action: 'blocked', why: problem } : { ...base, action: 'remove' });
    }
  }
  return { steps, alsoOn, wanted };
}

function replaceWhy(
  e: DeployEntry,
  managed: boolean,
  w: Placement,
  take: Set<string>,
  restore: Set<string>,
): { ok: boolean; conflict?: boolean; msg: MessageRef } {
  const params = { path: w.path, skill: w.skill, folder: w.folder, agents: w.readers };
  if (!managed) {
    const msg: MessageRef = { key: 'deploy.foreign-entry', params };
    return take.has(w.path) ? { ok: true, msg } : { ok: false, msg };
  }
  if (e.reason === 'edited') {
    const msg: MessageRef = { key: 'deploy.edited-copy', params };
    return restore.has(w.path) || take.has(w.path) ? { ok: true, msg } : { ok: false, conflict: true, msg };
  }
  if (e.reason === 'replaced' && e.kind === 'dir') {
    // our link was replaced by a real folder: someone's content, not ours to remove unasked
    const msg: MessageRef = { key: 'deploy.foreign-entry', params };
    return take.has(w.path) ? { ok: true, msg } : { ok: false, msg };
  }
  return { ok: true, msg: { key: 'deploy.repaired', params: { ...params, reason: e.reason ?? e.state } } };
}
