import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { MessageRef, ProjectPlan, ProjectWrite } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { allAgents, type AgentDef } from '../agents/registry.js';
import { getSettings } from '../settings/settings.js';
import { isInside } from '../base/extpath.js';
import { lstatOrNull } from '../library/tree.js';
import { lockContentHash } from '../sources/lock.js';
import { chooseTargets, listsTwice, type DeployScope } from './targets.js';

// Project scope, the layout: which of a project's skills folders get a skill, and exactly what
// would be written there. One folder holds the skill's copy; every other chosen folder gets a
// relative link to it (`.claude/skills/x -> ../../.agents/skills/x`, as the reference `skills` CLI
// lays a project out), so the project can be committed and cloned and the links still resolve.
// Nothing already there is overwritten: a name taken by other content stops the plan.

/** The agents of the registry and the user's custom agents. */
export function registryAgents(ctx: ServiceContext): AgentDef[] {
  return allAgents(ctx.paths.resourcesDir, getSettings(ctx).get().customAgents);
}

/**
 * The project folder, resolved and real; refused when it is not a folder, lies inside SkillDock's
 * home, or holds it (SkillDock never writes its own folders as someone's project).
 */
export function guardProject(ctx: ServiceContext, given: string): string {
  const abs = path.resolve(given);
  let real: string;
  try {
    real = fs.realpathSync(abs);
    if (!fs.statSync(real).isDirectory()) throw new Error('not a folder');
  } catch {
    throw fail('bad-request', 'project.not-folder', { path: abs });
  }
  const home = path.resolve(ctx.paths.home);
  const homes = [home];
  try {
    homes.push(fs.realpathSync(home));
  } catch {
    // no home yet: its path as given is all there is to compare
  }
  for (const h of homes) {
    for (const p of [abs, real]) {
      if (isInside(p, h)) throw fail('refused', 'project.inside-home', { path: abs, home });
      if (isInside(h, p)) throw fail('refused', 'project.contains-home', { path: abs, home });
    }
  }
  // The home folder itself: its .claude/skills and .agents/skills are the agents' user folders,
  // which deployments keep; a project there would write them behind their back.
  const user = path.resolve(ctx.paths.userHome);
  if (abs === user || real === user) throw fail('refused', 'project.user-home', { path: abs });
  return real;
}

export interface FolderChoice {
  folders: Array<{ folder: string; agents: string[]; alsoReadBy: string[] }>;
  /** Agents (chosen or not) that read a skill from two of the chosen folders. */
  twice: string[];
}

/**
 * The project folders to place skills in for `chosen`: the same choice as for the user's own
 * folders (chooseTargets in targets.ts), with each agent's project folders as the folders it reads
 * and may be given: every chosen agent reads one, none that lists a name twice reads two, as few
 * agents not chosen as can be get the skills too. The copy goes in `.agents/skills` when chosen
 * (read by most, as the reference CLI lays a project out); the other folders get links to it.
 */
export function chooseFolders(all: AgentDef[], chosen: AgentDef[]): FolderChoice {
  const scope: DeployScope = {
    key: 'project',
    libraryDir: '',
    agents: all.map((a) => ({ id: a.id, name: a.name, reads: a.projectDirs, targets: a.projectDirs, sameName: a.sameName })),
  };
  // every skill of a project goes to the same folders: choose once, for one stand-in skill
  const { placements } = chooseTargets(scope, { '': Object.fromEntries(chosen.map((a) => [a.id, 'copy' as const])) }, { twice: 'allow' });
  const chosenIds = new Set(chosen.map((a) => a.id));
  const order = [...new Set(chosen.flatMap((a) => a.projectDirs))];
  const set = placements.map((p) => p.folder);
  set.sort((a, b) => (a === '.agents/skills' ? -1 : b === '.agents/skills' ? 1 : order.indexOf(a) - order.indexOf(b)));
  return {
    folders: set.map((folder) => ({
      folder,
      agents: chosen.filter((a) => a.projectDirs.includes(folder)).map((a) => a.id),
      alsoReadBy: all.filter((a) => !chosenIds.has(a.id) && a.projectDirs.includes(folder)).map((a) => a.id),
    })),
    // only agents that list a name twice see the skills twice (the others keep one, as in user folders)
    twice: all.filter((a) => listsTwice(a) && set.filter((d) => a.projectDirs.includes(d)).length > 1).map((a) => a.id),
  };
}

/** One skill to place: its name in the project, its content (null: only checked, must be there) and that content's lock hash. */
export interface LayoutItem {
  name: string;
  dir: string | null;
  hash: string;
}

export type LayoutStep = { kind: 'copy'; rel: string; from: string } | { kind: 'link'; rel: string; target: string };

export interface SkillLayout {
  name: string;
  status: 'new' | 'present' | 'partial' | 'conflict';
  copy: string;
  steps: LayoutStep[];
  /** The skill is missing somewhere and no content was given for it. */
  needsContent: boolean;
}

export interface Layout {
  skills: SkillLayout[];
  problems: MessageRef[];
  /** Folders to make first, shared by every skill. */
  dirs: string[];
}

const posix = (p: string) => p.split(path.sep).join('/');

/** Make sure no part of `rel` under the project is a link (or a file); collect the folders to make. */
function checkFolder(project: string, rel: string, problems: MessageRef[], dirs: string[]): boolean {
  let at = project;
  for (const part of rel.split('/')) {
    at = path.join(at, part);
    const st = lstatOrNull(at);
    const shown = posix(path.relative(project, at));
    if (!st) {
      if (!dirs.includes(shown)) dirs.push(shown);
      continue;
    }
    if (!st.isDirectory() || st.isSymbolicLink()) {
      const m: MessageRef = { key: 'project.folder-link', params: { path: shown } };
      if (!problems.some((p) => JSON.stringify(p) === JSON.stringify(m))) problems.push(m);
      return false;
    }
  }
  return true;
}

type EntryState = 'ok' | 'missing' | 'pending' | 'taken';

/** What is at `<project>/<folder>/<name>` compared with the content wanted. */
function entryState(project: string, folders: string[], folder: string, item: LayoutItem): EntryState {
  const p = path.join(project, folder, item.name);
  const st = lstatOrNull(p);
  if (!st) return 'missing';
  if (st.isSymbolicLink()) {
    const to = path.resolve(path.dirname(p), fs.readlinkSync(p));
    if (!fs.existsSync(p)) {
      // Dangling into one of the chosen folders (a clone without the copy): it resolves once the copy is back.
      return folders.some((f) => path.join(project, f, item.name) === to) ? 'pending' : 'taken';
    }
  } else if (!st.isDirectory()) return 'taken';
  try {
    return lockContentHash(fs.realpathSync(p)) === item.hash ? 'ok' : 'taken';
  } catch {
    return 'taken';
  }
}

/** Where each skill goes in `folders` (relative to the project) and what that takes. */
export function layout(project: string, folders: string[], items: LayoutItem[]): Layout {
  const problems: MessageRef[] = [];
  const dirs: string[] = [];
  const usable = folders.filter((f) => checkFolder(project, f, problems, dirs));
  const skills: SkillLayout[] = [];
  for (const item of items) {
    const at = (f: string) => path.join(project, f, item.name);
    const states = new Map(usable.map((f) => [f, entryState(project, folders, f, item)]));
    const linkTo = (f: string) => path.resolve(path.dirname(at(f)), fs.readlinkSync(at(f)));
    // An existing real copy with the right content stays the copy; else the folder that dangling
    // links already point to; else the first folder (`.agents/skills` when chosen).
    const copyFolder =
      usable.find((f) => states.get(f) === 'ok' && !lstatOrNull(at(f))!.isSymbolicLink()) ??
      usable.find((f) => states.get(f) === 'missing' && usable.some((g) => states.get(g) === 'pending' && linkTo(g) === at(f))) ??
      usable.find((f) => states.get(f) === 'missing') ??
      usable[0] ??
      folders[0]!;
    for (const f of usable) if (states.get(f) === 'pending' && linkTo(f) !== at(copyFolder)) states.set(f, 'taken');
    const taken = usable.filter((f) => states.get(f) === 'taken');
    for (const f of taken) problems.push({ key: 'project.taken', params: { path: `${f}/${item.name}` } });
    const copy = `${copyFolder}/${item.name}`;
    const steps: LayoutStep[] = [];
    let needsContent = false;
    for (const f of usable) {
      if (states.get(f) !== 'missing') continue;
      const rel = `${f}/${item.name}`;
      if (f !== copyFolder) steps.push({ kind: 'link', rel, target: posix(path.relative(path.join(project, f), at(copyFolder))) });
      else if (item.dir) steps.push({ kind: 'copy', rel, from: item.dir });
      else needsContent = true;
    }
    steps.sort((a, b) => (a.kind === 'copy' ? 0 : 1) - (b.kind === 'copy' ? 0 : 1)); // the copy before the links to it
    const okCount = usable.filter((f) => states.get(f) === 'ok').length;
    const status = taken.length ? 'conflict' : !steps.length && !needsContent ? 'present' : okCount ? 'partial' : 'new';
    skills.push({ name: item.name, status, copy, steps, needsContent });
  }
  return { skills, problems, dirs };
}

/** Every file and link a copy of `from` makes at `rel` (what the user is shown before it is written). */
function copyWrites(from: string, rel: string, skill: string): ProjectWrite[] {
  const out: ProjectWrite[] = [];
  const walk = (abs: string, r: string) => {
    for (const name of fs.readdirSync(abs).sort()) {
      const p = path.join(abs, name);
      const st = fs.lstatSync(p);
      const wr = `${r}/${name}`;
      if (st.isDirectory()) walk(p, wr);
      else if (st.isSymbolicLink()) out.push({ path: wr, kind: 'link', skill, target: fs.readlinkSync(p), action: 'create' });
      else if (st.isFile()) out.push({ path: wr, kind: 'file', skill, action: 'create' });
    }
  };
  walk(fs.realpathSync(from), rel);
  return out;
}

/** The writes of a layout in the order apply makes them. */
export function layoutWrites(l: Layout): ProjectWrite[] {
  const out: ProjectWrite[] = l.dirs.map((d) => ({ path: d, kind: 'dir' as const, action: 'create' as const }));
  for (const s of l.skills) {
    for (const step of s.steps) {
      if (step.kind === 'copy') out.push(...copyWrites(step.from, step.rel, s.name));
      else if (step.kind === 'link') out.push({ path: step.rel, kind: 'link', skill: s.name, target: step.target, action: 'create' });
    }
  }
  return out;
}

/** A plan's digest: what it writes and the lock's text, so apply can tell the disk moved on since. */
export function planDigest(writes: ProjectWrite[], lock: ProjectPlan['lock']): string {
  return createHash('sha256').update(JSON.stringify({ writes, lock })).digest('hex');
}
