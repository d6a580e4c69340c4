// src/deploy: what SkillDock keeps in agents' own skills folders (the user's, or a project's).
//
// The engine, for any scope (a set of agents and the folders each reads):
//   chooseTargets(scope, desired)        -> the folder per skill and agent (nobody lists a skill twice)
//   statusOf({scope, record})            -> every entry's state, the skill × agent matrix
//   planDeploy(scope, record, choices)   -> steps (place, replace, remove, forget, blocked, conflict)
//   applySteps(ctx, wal, {steps, ...})   -> makes them inside runJournaled (src/library/recover.ts)
// and the service (getDeploy) that runs them for the user scope, journaled, with undo.
import fs from 'node:fs';
import path from 'node:path';
import type { DeployResult, DeployStatus, DeployStep, JournalChange, MessageRef } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { runJournaled } from '../library/recover.js';
import { assertRevertible, registerUndoHandler, revertAll } from '../library/journal.js';
import { happened, type WriteAhead } from '../library/wal.js';
import { registerLibraryFollower, type LibraryChange } from '../library/followers.js';
import { writeFileAtomic } from '../store/index.js';
import { getSecurity } from '../security/security-service.js';
import { readRecord, recordFile, scopeRecord, withChange, parseRecord, readRecordText } from './record.js';
import { planDeploy, type PlanChoices } from './plan.js';
import { applySteps } from './apply.js';
import { statusOf, librarySkills, wantedPlacements, copiesInstead } from './status.js';
import { userScope, USER_SCOPE } from './scopes.js';
import type { DeployScope, Desired, Placement } from './targets.js';
import { watchFolders, type FolderWatch } from './watch.js';

// The user scope's deployments as the front doors see them: status, set (on/off per skill and
// agent), repair, a copy's diff and keeping its edit. Every change runs under the library lock on
// the one write-ahead path and is one journal entry (`deploy`), which one undo reverts whole.

export const JOURNAL_DEPLOY = 'deploy';

export interface SetInput extends PlanChoices {
  skills: string[];
  agents: string[];
  allAgents?: boolean;
  mode: 'link' | 'copy' | null;
  dryRun?: boolean;
  confirmed?: boolean;
}

const changed = (steps: DeployStep[]) => steps.some((s) => s.action !== 'blocked' && s.action !== 'conflict');

export class DeployService {
  private watcher: FolderWatch | null = null;

  constructor(private readonly ctx: ServiceContext) {
    // A deploy's changes end with the record's keys it set (`patched-json`), so undo and redo revert
    // it like any library operation. Entries written before that kept the whole record
    // (`recordBefore`): those are undone here, and cannot be redone.
    registerUndoHandler(ctx, JOURNAL_DEPLOY, {
      applies: (entry) => entry.recordBefore !== undefined,
      undo: (entry) => this.undoEntry(entry.id, entry.changes ?? [], (entry.recordBefore ?? null) as string | null),
    });
    registerLibraryFollower(ctx, (wal, change) => this.follow(wal, change));
  }

  scope(): DeployScope {
    return userScope(this.ctx);
  }

  status(opts: { agent?: string; deep?: boolean } = {}): DeployStatus {
    const scope = this.scope();
    if (opts.agent && !scope.agents.some((a) => a.id === opts.agent))
      throw fail('not-found', 'library.unknown-agent', { agent: opts.agent });
    const s = statusOf({ scope, record: scopeRecord(readRecord(this.ctx), USER_SCOPE), deep: !!opts.deep });
    if (!opts.agent) return s;
    const reads = new Set(scope.agents.find((a) => a.id === opts.agent)!.reads);
    return {
      ...s,
      folders: s.folders.filter((f) => reads.has(f.path)),
      entries: s.entries.filter((e) => reads.has(e.folder)),
      cells: s.cells.filter((c) => c.agent === opts.agent),
    };
  }

  /** Questions to answer before deploying (unapproved scripts, high risk to every agent). */
  private async questions(skills: string[], agentCount: number, all: boolean, confirmed: boolean): Promise<MessageRef[]> {
    const sec = getSecurity(this.ctx);
    const lib = this.scope().libraryDir;
    const dirs = skills.map((skill) => path.join(lib, skill));
    // policy and approvals read once for all of them (a deploy of 500 skills checks 500)
    const waiting = sec.awaitingApproval(dirs);
    const ask: MessageRef[] = [];
    for (const [i, skill] of skills.entries()) {
      const dir = dirs[i]!;
      const t = waiting[i];
      if (t) ask.push({ key: t.status === 'changed' ? 'deploy.scripts-changed' : 'deploy.scripts-unapproved', params: { skill } });
      // an approval is never stood in for by a confirmation; the high-risk question is
      if (!confirmed && all && agentCount > 1 && sec.scan([dir]).summary.high > 0)
        ask.push({ key: 'deploy.high-risk-all', params: { skill } });
    }
    return ask;
  }

  async set(input: SetInput): Promise<DeployResult> {
    const scope = this.scope();
    const library = librarySkills(scope.libraryDir);
    for (const s of input.skills) if (!library.has(s)) throw fail('not-found', 'library.not-found', { name: s });
    const ids = input.allAgents ? scope.agents.map((a) => a.id) : input.agents;
    if (!ids.length) throw fail('bad-request', 'deploy.no-agents');
    for (const a of ids) if (!scope.agents.some((x) => x.id === a)) throw fail('not-found', 'library.unknown-agent', { agent: a });
    if (input.mode) {
      const ask = await this.questions(
        input.skills,
        ids.length,
        !!input.allAgents || ids.length === scope.agents.length,
        !!input.confirmed,
      );
      if (ask.length) return { steps: [], alsoOn: {}, ask, notices: [] };
    }
    const r = await this.apply(input, (desired) => withChange(desired, input.skills, ids, input.mode), new Set(input.skills));
    // what is left as it is for agents this change is not about stays for status and repair to say
    const about = (s: DeployStep) => (s.action !== 'blocked' && s.action !== 'conflict') || s.agents.some((a) => ids.includes(a));
    return { ...r, steps: r.steps.filter(about) };
  }

  repair(choices: PlanChoices & { dryRun?: boolean } = {}): Promise<DeployResult> {
    return this.apply({ ...choices, deep: true }, (d) => d);
  }

  private async apply(
    choices: PlanChoices & { dryRun?: boolean },
    next: (desired: Record<string, Record<string, 'link' | 'copy'>>) => Record<string, Record<string, 'link' | 'copy'>>,
    only?: Set<string>,
  ): Promise<DeployResult> {
    const scope = this.scope();
    const run = async (wal: WriteAhead | null): Promise<DeployResult> => {
      const record = scopeRecord(readRecord(this.ctx), USER_SCOPE);
      const desired = next(record.desired);
      const plan = planDeploy(scope, { ...record, desired }, choices, only);
      const alsoOn = only ? Object.fromEntries(Object.entries(plan.alsoOn).filter(([k]) => only.has(k))) : plan.alsoOn;
      const notices = acrossNotices(plan.steps, plan.wanted);
      if (!wal) return { steps: plan.steps, alsoOn, ask: [], notices };
      const desiredChanged = JSON.stringify(desired) !== JSON.stringify(record.desired);
      if (!changed(plan.steps) && !desiredChanged) return { steps: plan.steps, alsoOn, ask: [], notices };
      const out = applySteps(this.ctx, wal, {
        scopeKey: USER_SCOPE,
        root: this.ctx.paths.userHome,
        libraryDir: scope.libraryDir,
        steps: plan.steps,
        wanted: plan.wanted,
        desired,
      });
      const entry = wal.commit({
        op: JOURNAL_DEPLOY,
        summary: describe(out.steps),
        changes: out.changes,
        scope: USER_SCOPE,
        skills: [...new Set(out.steps.map((s) => s.skill))].map((name) => ({ name })),
      });
      return { steps: out.steps, alsoOn, journalId: entry.id, ask: [], notices: acrossNotices(out.steps, plan.wanted) };
    };
    if (choices.dryRun) return run(null);
    const r = await runJournaled(this.ctx, JOURNAL_DEPLOY, run);
    this.ctx.events.emit({ type: 'deploy-changed', folders: [...new Set(r.steps.map((s) => s.folder))] });
    return r;
  }

  /**
   * Inside another journaled operation (keeping a copy's edit): make the steps for `only` with
   * `choices`, against the record as it is now; the changes join that operation's entry.
   */
  applyInside(wal: WriteAhead, choices: PlanChoices, only: Set<string>): { steps: DeployStep[]; changes: JournalChange[] } {
    const scope = this.scope();
    const record = scopeRecord(parseRecord(this.ctx, readRecordText(this.ctx)), USER_SCOPE);
    const plan = planDeploy(scope, record, { ...choices, deep: true }, only);
    return applySteps(this.ctx, wal, {
      scopeKey: USER_SCOPE,
      root: this.ctx.paths.userHome,
      libraryDir: scope.libraryDir,
      steps: plan.steps,
      wanted: plan.wanted,
    });
  }

  /**
   * Undo a deploy written before deploys recorded their record keys: revert its changes newest first, then put the record back. A marker file says an
   * undo of this entry has begun, so finishing it after a crash skips what it had already reverted.
   */
  private undoEntry(id: string, changes: JournalChange[], recordBefore: string | null) {
    const marker = path.join(this.ctx.paths.home, `deploy-undo-${id.replace(/[^\w-]/g, '')}`);
    const resumed = fs.existsSync(marker);
    if (!resumed) assertRevertible(this.ctx, changes);
    fs.writeFileSync(marker, '');
    // newest first; finishing after a crash, a change no longer in its after-state was reverted already
    const done: JournalChange[] = [];
    for (const c of [...changes].reverse()) if (!resumed || happened(c)) done.push(...revertAll([c]));
    if (recordBefore === null) fs.rmSync(recordFile(this.ctx), { force: true });
    else writeFileAtomic(recordFile(this.ctx), recordBefore);
    fs.rmSync(marker, { force: true });
    queueMicrotask(() => this.ctx.events.emit({ type: 'deploy-changed', folders: [] }));
    return { changes: done, message: `Undid a deploy (${changes.length} change(s))` };
  }

  /** Carry a library delete, restore or update over to the deployments, in the library's own operation. */
  private follow(wal: WriteAhead, change: LibraryChange): JournalChange[] {
    const scope = this.scope();
    const record = scopeRecord(parseRecord(this.ctx, readRecordText(this.ctx)), USER_SCOPE);
    const names = new Set(change.names);
    const desired = carryRenames(record.desired, change.renamed ?? {}, librarySkills(scope.libraryDir));
    for (const from of Object.keys(change.renamed ?? {})) names.add(from);
    const mine = Object.values(record.placed).some((p) => names.has(p.skill)) || Object.keys(record.desired).some((s) => names.has(s));
    if (!mine) return [];
    // under its new name the skill is placed where the old one was wanted; what the old name left
    // on disk is taken away like any skill turned off (an edited copy stays, a conflict)
    record.desired = desired;
    const plan = planDeploy(scope, record, {}, names);
    let steps = plan.steps;
    if (change.op === 'update') {
      // a copy still as SkillDock left it gets the new version; an edited one stays a conflict
      const { placements } = wantedPlacements(scope, record.desired, librarySkills(scope.libraryDir));
      const copies = placements.filter((p) => names.has(p.skill) && p.mode === 'copy' && record.placed[p.path]?.mode === 'copy');
      const planned = new Set(steps.map((s) => s.path));
      steps = [
        ...steps,
        ...copies
          .filter((p) => !planned.has(p.path))
          .map((p) => ({ action: 'replace' as const, path: p.path, skill: p.skill, folder: p.folder, mode: p.mode, agents: p.readers })),
      ];
    }
    if (change.op === 'delete') steps = steps.filter((s) => s.action === 'remove' || s.action === 'conflict');
    const out = applySteps(this.ctx, wal, {
      scopeKey: USER_SCOPE,
      root: this.ctx.paths.userHome,
      libraryDir: scope.libraryDir,
      steps,
      wanted: plan.wanted,
      keepRecordOfRemoved: change.op === 'delete',
      ...(change.renamed ? { desired } : {}),
    });
    queueMicrotask(() => this.ctx.events.emit({ type: 'deploy-changed', folders: [...new Set(out.steps.map((s) => s.folder))] }));
    return out.changes;
  }

  /** Agents whose folders lose `skill` if it leaves the library (for the delete confirmation). */
  losing(skill: string): string[] {
    const s = this.status();
    return s.cells.filter((c) => c.skill === skill && c.on).map((c) => c.agent);
  }

  /** Watch every folder the agents read; `deploy-changed` within a second of a change on disk. */
  watch(): void {
    if (this.watcher) return;
    this.watcher = watchFolders(
      () => this.scope().agents.flatMap((a) => a.reads),
      (folders) => this.ctx.events.emit({ type: 'deploy-changed', folders }),
    );
    this.ctx.onClose(() => {
      this.watcher?.close();
      this.watcher = null;
    });
  }
}

/** One notice per folder where a step placed a copy because a link cannot go there (another filesystem). */
function acrossNotices(steps: DeployStep[], wanted: Map<string, Placement>): MessageRef[] {
  const folders = new Map<string, string[]>();
  for (const s of steps)
    if ((s.action === 'place' || s.action === 'replace') && wanted.get(s.path)?.across) folders.set(s.folder, s.agents);
  return [...folders].map(([folder, agents]) => copiesInstead(folder, agents));
}

/**
 * The chosen agents of each renamed skill moved to its new name. Not when another skill took the
 * old name in the meantime: those choices are that skill's now.
 */
function carryRenames(desired: Desired, renamed: Record<string, string>, library: Set<string>): Desired {
  const out = structuredClone(desired);
  for (const [from, to] of Object.entries(renamed)) {
    if (!out[from] || library.has(from)) continue;
    out[to] = { ...out[from], ...out[to] };
    delete out[from];
  }
  return out;
}

function describe(steps: DeployStep[]): string {
  const n = (a: DeployStep['action']) => steps.filter((s) => s.action === a).length;
  return `${n('place')} placed, ${n('replace')} replaced, ${n('remove')} removed${n('blocked') + n('conflict') ? `, ${n('blocked') + n('conflict')} left as they are` : ''}`;
}

export function getDeploy(ctx: ServiceContext): DeployService {
  return ctx.use('deploy', () => new DeployService(ctx));
}
