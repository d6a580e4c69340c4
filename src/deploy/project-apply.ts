import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { JournalChange, MessageRef, ProjectDeployInput, ProjectPlan, ProjectWrite } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail, SkillDockError } from '../errors.js';
import { getSources } from '../sources/service.js';
import { lockContentHash } from '../sources/lock.js';
import { getSecurity } from '../security/security-service.js';
import { libraryDir } from '../library/trash.js';
import { LinkOutsideError, copySkillTree, lstatOrNull, treeDigest } from '../library/tree.js';
import { runJournaled } from '../library/recover.js';
import type { WriteAhead } from '../library/wal.js';
import { LOCK_FILE, lockEntryFor, readProjectLock, renderProjectLock, type ProjectLockEntry } from './lock-file.js';
import { chooseFolders, guardProject, layout, layoutWrites, planDigest, registryAgents, type Layout } from './project.js';

// Project scope, plan and apply: the plan names every file, link and folder that apply will write
// and the lock file's new text; apply writes exactly that, on the one write-ahead path (a crash
// leaves the project as before), as one journal entry that one undo takes back.

export const PROJECT_OP = 'project-deploy';

export interface Planned {
  plan: ProjectPlan;
  layout: Layout;
}

/** Agents by id; refused when one is unknown or reads no folder in a project. */
function chosenAgents(ctx: ServiceContext, ids: string[]) {
  const all = registryAgents(ctx);
  const chosen = [...new Set(ids)].map((id) => {
    const a = all.find((x) => x.id === id);
    if (!a) throw fail('not-found', 'project.unknown-agent', { agent: id });
    if (!a.projectDirs.length) throw fail('unsupported', 'project.no-project-folder', { agent: a.name });
    return a;
  });
  return { all, chosen };
}

/** The lock's new text with `add` entered (an entry already saying the same is kept byte for byte). */
function lockPlan(project: string, add: Record<string, ProjectLockEntry>, problems: MessageRef[]): ProjectPlan['lock'] {
  let lock;
  try {
    lock = readProjectLock(project);
  } catch (err) {
    if (!(err instanceof SkillDockError) || !err.msg) throw err;
    problems.push(err.msg);
    return { path: LOCK_FILE, action: 'unchanged', content: '' };
  }
  const skills = { ...lock.skills };
  for (const [name, e] of Object.entries(add)) {
    if (JSON.stringify(skills[name]) !== JSON.stringify(e)) skills[name] = e;
  }
  if (lock.raw === null && !Object.keys(add).length) return { path: LOCK_FILE, action: 'unchanged', content: '' };
  const content = renderProjectLock(lock.version, skills);
  return { path: LOCK_FILE, action: lock.raw === null ? 'create' : lock.raw === content ? 'unchanged' : 'update', content };
}

/** What applying `input` would write; changes nothing. */
export async function planProject(ctx: ServiceContext, input: ProjectDeployInput): Promise<Planned> {
  const project = guardProject(ctx, input.project);
  const { all, chosen } = chosenAgents(ctx, input.agents);
  const choice = chooseFolders(all, chosen);
  const names = (ids: string[]) => ids.map((id) => all.find((a) => a.id === id)?.name ?? id);
  const items = [...new Set(input.skills)].map((name) => {
    const dir = path.join(libraryDir(ctx), name);
    let real: string;
    try {
      real = fs.realpathSync(dir);
      if (!fs.existsSync(path.join(real, 'SKILL.md')) || name.includes('/') || name.startsWith('.')) throw new Error('no skill');
    } catch {
      throw fail('not-found', 'project.unknown-skill', { skill: name });
    }
    return { name, dir: real, hash: lockContentHash(real) };
  });
  const l = layout(
    project,
    choice.folders.map((f) => f.folder),
    items,
  );
  const problems = [...l.problems];
  const notes: MessageRef[] = [];
  for (const item of items) {
    const trust = await getSecurity(ctx).trust({ dir: item.dir });
    if (trust.needsApproval) problems.push({ key: 'project.needs-approval', params: { skill: item.name } });
  }
  const prov = getSources(ctx).listProvenance();
  const add: Record<string, ProjectLockEntry> = {};
  for (const item of items) {
    const origin = prov[item.name];
    const entry = origin ? lockEntryFor(origin, item.hash) : null;
    if (entry) add[item.name] = entry;
    else notes.push({ key: 'project.not-locked', params: { skill: item.name } });
  }
  for (const f of choice.folders) {
    if (f.alsoReadBy.length) notes.push({ key: 'project.also-read', params: { folder: f.folder, agents: names(f.alsoReadBy) } });
  }
  if (choice.twice.length) notes.push({ key: 'project.read-twice', params: { agents: names(choice.twice) } });
  const lock = lockPlan(project, add, problems);
  const writes: ProjectWrite[] = layoutWrites(l);
  if (lock.action !== 'unchanged') writes.push({ path: LOCK_FILE, kind: 'lock', action: lock.action });
  const plan: ProjectPlan = {
    project,
    folders: choice.folders,
    twice: choice.twice,
    skills: l.skills.map((s) => ({ name: s.name, status: s.status, copy: s.copy, locked: Boolean(add[s.name]) })),
    writes,
    lock,
    problems,
    notes,
    digest: planDigest(writes, lock),
  };
  return { plan, layout: l };
}

/** Write a text file in the project as any editor would (0644, atomically: a reader sees the old or the new). */
function writeProjectFile(file: string, text: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.skilldock-${randomBytes(4).toString('hex')}`);
  fs.writeFileSync(tmp, text, { flag: 'wx', mode: 0o644 });
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Make a layout's folders, copies and links, each announced first; returns the journal's changes. */
export function writeLayout(wal: WriteAhead, project: string, l: Layout): JournalChange[] {
  const changes: JournalChange[] = [];
  for (const rel of l.dirs) {
    const p = path.join(project, rel);
    wal.will({ kind: 'created-dir', path: p });
    fs.mkdirSync(p);
    changes.push({ kind: 'created-dir', path: p });
  }
  for (const s of l.skills) {
    for (const step of s.steps) {
      const dest = path.join(project, step.rel);
      if (lstatOrNull(dest)) throw fail('conflict', 'project.plan-changed');
      if (step.kind === 'copy') {
        const tmp = path.join(path.dirname(dest), `.${s.name}.skilldock-${randomBytes(4).toString('hex')}`);
        wal.will({ kind: 'created', path: tmp });
        try {
          copySkillTree(step.from, tmp);
        } catch (err) {
          if (err instanceof LinkOutsideError) throw fail('refused', 'export.link-outside', { file: err.rel, target: err.target });
          throw err;
        }
        const digest = treeDigest(tmp);
        wal.will({ kind: 'moved', from: tmp, to: dest });
        fs.renameSync(tmp, dest);
        changes.push({ kind: 'created', path: dest, digest });
      } else {
        wal.will({ kind: 'created', path: dest, linkTarget: step.target });
        fs.symlinkSync(step.target, dest, 'dir');
        changes.push({ kind: 'created', path: dest, linkTarget: step.target });
        // A link is checked once made (the reference CLI was seen reporting links it never made).
        const copy = path.join(project, s.copy);
        let real = '';
        try {
          real = fs.realpathSync(dest);
        } catch {
          // dangling: refused below
        }
        if (real !== fs.realpathSync(copy)) throw fail('io', 'project.link-wrong', { path: step.rel, target: s.copy });
      }
    }
  }
  return changes;
}

/** Write the lock's new text; the old one is kept in SkillDock's home so undo can put it back. */
function writeLock(ctx: ServiceContext, wal: WriteAhead, project: string, content: string): JournalChange[] {
  const file = path.join(project, LOCK_FILE);
  const st = lstatOrNull(file);
  const old = st ? fs.readFileSync(file, 'utf8') : null;
  const changes: JournalChange[] = [];
  if (old !== null) {
    // A copy keeps the file's permissions: undo renames it back over the lock.
    const kept = path.join(ctx.paths.home, 'deploy', 'project-locks', `${wal.id}.json`);
    fs.mkdirSync(path.dirname(kept), { recursive: true });
    wal.will({ kind: 'created', path: kept });
    fs.copyFileSync(file, kept, fs.constants.COPYFILE_EXCL);
    changes.push({ kind: 'moved', from: file, to: kept });
  }
  wal.will({ kind: 'rewrote-file', path: file, content: old, ...(st ? { mode: st.mode & 0o7777 } : {}) });
  writeProjectFile(file, content);
  changes.push({ kind: 'created', path: file, digest: treeDigest(file) });
  return changes;
}

/** Apply the plan for `input` (refused when it has problems, or differs from the plan shown: `digest`). */
export async function applyProject(ctx: ServiceContext, input: ProjectDeployInput & { digest?: string | undefined }) {
  return runJournaled(ctx, PROJECT_OP, async (wal) => {
    const { plan, layout: l } = await planProject(ctx, input);
    if (plan.problems.length) throw refusal(plan.project, plan.problems);
    if (input.digest && input.digest !== plan.digest) throw fail('conflict', 'project.plan-changed');
    const changes = writeLayout(wal, plan.project, l);
    if (plan.lock.action !== 'unchanged') changes.push(...writeLock(ctx, wal, plan.project, plan.lock.content));
    if (!changes.length) return { plan, written: 0 };
    const skills = plan.skills.filter((s) => s.status !== 'present').map((s) => s.name);
    const j = wal.commit({
      op: PROJECT_OP,
      summary: `${skills.join(', ') || 'skills-lock.json'} into ${plan.project}`,
      changes,
      project: plan.project,
    });
    return { plan, written: plan.writes.length, journalId: j.id };
  });
}

/** One refusal naming every problem (the CLI prints them one a line from `details`). */
export function refusal(project: string, problems: MessageRef[]): SkillDockError {
  return fail('refused', 'project.refused', { project, problems }, { project, problems });
}
