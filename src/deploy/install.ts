import fs from 'node:fs';
import path from 'node:path';
import type { MessageRef, ProjectInstallOutput } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail, SkillDockError } from '../errors.js';
import { getSources, type Checkout } from '../sources/service.js';
import { lockContentHash } from '../sources/lock.js';
import { skillDirIn } from '../sources/confine.js';
import type { ParsedSource } from '../sources/parse.js';
import { getSecurity } from '../security/security-service.js';
import { libraryDir } from '../library/trash.js';
import { runJournaled } from '../library/recover.js';
import { lockSkillDir, lockSourceWords, readProjectLock, type ProjectLockEntry } from './lock-file.js';
import { chooseFolders, guardProject, layout, layoutWrites, registryAgents, type LayoutItem } from './project.js';
import { PROJECT_OP, refusal, writeLayout } from './project-apply.js';

// `skilldock install [dir]`: make a project match its skills-lock.json, whichever tool wrote it,
// as `npm ci` does a package lock. Each locked skill already in the project with the locked hash
// stays; a missing one comes from the library when a library skill of that name has the locked
// hash, else from its source, checked against the hash before anything is kept. Everything is
// fetched and checked first: an unreachable source, a hash that differs, a name taken in the
// project or scripts waiting for approval refuse the whole install, and the project is not touched.

const RESTORABLE = new Set(['git', 'github', 'gitlab', 'local']);
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

interface Got {
  dir: string;
  status: 'library' | 'fetched';
  library?: string;
  commit?: string;
  /** The fetched skill, to add to the library (not for a preview). */
  from?: { p: ParsedSource; co: Checkout };
}

/** Folders already holding a locked skill (a clone of a project set up before), else the reference CLI's `.agents/skills`. */
function defaultFolders(ctx: ServiceContext, project: string, names: string[]): string[] {
  const dirs = [...new Set(registryAgents(ctx).flatMap((a) => a.projectDirs))];
  const used = dirs.filter((d) => names.some((n) => fs.existsSync(path.join(project, d, n)) || isLink(path.join(project, d, n))));
  // A link left dangling by a clone (the reference CLI links `.claude/skills/x` to `.agents/skills/x`,
  // and the copy was not committed): the folder it points to is where the copy goes back.
  for (const d of [...used]) {
    for (const n of names) {
      const p = path.join(project, d, n);
      if (!isLink(p)) continue;
      const to = path
        .relative(project, path.dirname(path.resolve(path.dirname(p), fs.readlinkSync(p))))
        .split(path.sep)
        .join('/');
      if (dirs.includes(to) && !used.includes(to)) used.push(to);
    }
  }
  used.sort((a, b) => (a === '.agents/skills' ? -1 : b === '.agents/skills' ? 1 : 0));
  return used.length ? used : ['.agents/skills'];
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Entries SkillDock can restore, and a problem for each other one. */
function usableEntries(file: string, skills: Record<string, ProjectLockEntry>, problems: MessageRef[]) {
  const out: Array<[string, ProjectLockEntry & { computedHash: string }]> = [];
  for (const [name, e] of Object.entries(skills).sort(([a], [b]) => a.localeCompare(b))) {
    if (!NAME.test(name)) problems.push({ key: 'project.lock-name', params: { skill: name, path: file } });
    else if (!RESTORABLE.has(e.sourceType)) problems.push({ key: 'project.lock-source-type', params: { skill: name, type: e.sourceType } });
    else if (!e.computedHash) problems.push({ key: 'project.lock-no-hash', params: { skill: name } });
    else out.push([name, e as ProjectLockEntry & { computedHash: string }]);
  }
  return out;
}

/** A library skill of that name with the locked content, if there is one. */
function fromLibrary(ctx: ServiceContext, name: string, hash: string): Got | null {
  try {
    const real = fs.realpathSync(path.join(libraryDir(ctx), name));
    return lockContentHash(real) === hash ? { dir: real, status: 'library', library: name } : null;
  } catch {
    return null;
  }
}

/** Fetch the sources of `wanted` (one checkout per source and ref) and check each skill's hash. */
async function fetchLocked(
  ctx: ServiceContext,
  project: string,
  wanted: Array<[string, ProjectLockEntry & { computedHash: string }]>,
  got: Map<string, Got>,
  problems: MessageRef[],
  checkouts: Checkout[],
): Promise<void> {
  const sources = getSources(ctx);
  const groups = new Map<string, Array<[string, ProjectLockEntry & { computedHash: string }]>>();
  for (const w of wanted) {
    const key = JSON.stringify([lockSourceWords(w[1], project), w[1].ref ?? '']);
    groups.set(key, [...(groups.get(key) ?? []), w]);
  }
  for (const [key, list] of groups) {
    const [words, ref] = JSON.parse(key) as [string, string];
    let p: ParsedSource;
    let co: Checkout;
    try {
      p = sources.parse(words, ref || undefined);
      co = await sources.checkout(p);
    } catch (err) {
      if (!(err instanceof SkillDockError)) throw err;
      const detail = err.msg ?? err.message;
      for (const [name] of list) problems.push({ key: 'project.unreachable', params: { skill: name, source: words, detail } });
      continue;
    }
    checkouts.push(co);
    for (const [name, e] of list) {
      const rel = lockSkillDir(e);
      let dir: string;
      try {
        dir = skillDirIn(co.dir, rel, words);
      } catch (err) {
        problems.push((err as SkillDockError).msg ?? { key: 'project.not-in-source', params: { skill: name, source: words, path: rel } });
        continue;
      }
      if (!fs.existsSync(path.join(dir, 'SKILL.md'))) {
        problems.push({ key: 'project.not-in-source', params: { skill: name, source: words, path: rel || '.' } });
        continue;
      }
      const actual = lockContentHash(dir);
      if (actual !== e.computedHash) {
        problems.push({ key: 'project.hash-differs', params: { skill: name, source: words, expected: e.computedHash, actual } });
        continue;
      }
      got.set(name, { dir, status: 'fetched', commit: co.commit, from: { p: { ...p, subpath: rel }, co } });
    }
  }
}

/** Put the fetched skills into the library (as `add` does, provenance recorded); then check their approvals. */
async function keepFetched(ctx: ServiceContext, got: Map<string, Got>, problems: MessageRef[]): Promise<void> {
  for (const [name, g] of got) {
    if (!g.from) continue;
    const { p, co } = g.from;
    const out = await getSources(ctx).addFrom(p, { ...co, done: () => {} }, { source: p.given, onConflict: 'keep-both' });
    const r = out.summary?.results.find((x) => x.libraryName);
    if (!r?.libraryName) {
      problems.push({ key: 'project.not-in-source', params: { skill: name, source: p.given, path: p.subpath || '.' } });
      continue;
    }
    // The project gets the checked files from the checkout (a copy kept under another name may
    // have had its `name:` changed by the library); the library copy is what approvals look at.
    g.library = r.libraryName;
    delete g.from;
  }
  for (const [name, g] of got) {
    const trust = await getSecurity(ctx).trust({ dir: path.join(libraryDir(ctx), g.library ?? name) });
    if (trust.needsApproval) problems.push({ key: 'project.install-approve', params: { skill: name, library: g.library ?? name } });
  }
}

export async function installProject(
  ctx: ServiceContext,
  input: { project: string; agents?: string[] | undefined; preview?: boolean | undefined },
): Promise<ProjectInstallOutput> {
  const project = guardProject(ctx, input.project);
  const lock = readProjectLock(project);
  if (lock.raw === null) throw fail('not-found', 'project.lock-missing', { project });
  const problems: MessageRef[] = [];
  const entries = usableEntries(lock.file, lock.skills, problems);
  let folders: string[];
  if (input.agents?.length) {
    const all = registryAgents(ctx);
    const chosen = input.agents.map((id) => all.find((a) => a.id === id) ?? fail('not-found', 'project.unknown-agent', { agent: id }));
    const bad = chosen.find((a) => a instanceof SkillDockError);
    if (bad) throw bad;
    folders = chooseFolders(all, chosen as typeof all).folders.map((f) => f.folder);
  } else
    folders = defaultFolders(
      ctx,
      project,
      entries.map(([n]) => n),
    );
  const items = (got: Map<string, Got>): LayoutItem[] =>
    entries.map(([name, e]) => ({ name, dir: got.get(name)?.dir ?? null, hash: e.computedHash }));
  const first = layout(project, folders, items(new Map()));
  problems.push(...first.problems);
  const got = new Map<string, Got>();
  const missing = entries.filter(([name]) => first.skills.find((s) => s.name === name)?.needsContent);
  for (const [name, e] of missing) {
    const lib = fromLibrary(ctx, name, e.computedHash);
    if (lib) got.set(name, lib);
  }
  const checkouts: Checkout[] = [];
  try {
    await fetchLocked(
      ctx,
      project,
      missing.filter(([n]) => !got.has(n)),
      got,
      problems,
      checkouts,
    );
    if (problems.length) throw refusal(project, problems);
    if (!input.preview) {
      await keepFetched(ctx, got, problems);
      if (problems.length) throw refusal(project, problems);
    }
    const final = layout(project, folders, items(got));
    if (final.problems.length) throw refusal(project, final.problems);
    const writes = layoutWrites(final);
    const out: ProjectInstallOutput = {
      project,
      lock: lock.file,
      folders,
      writes,
      applied: false,
      skills: entries.map(([name, e]) => {
        const g = got.get(name);
        const source = lockSourceWords(e, project);
        if (!g) return { name, source, status: 'present' as const };
        return { name, source, status: g.status, ...(g.library ? { library: g.library } : {}), ...(g.commit ? { commit: g.commit } : {}) };
      }),
    };
    if (input.preview || !writes.length) return out;
    const journalId = await runJournaled(ctx, PROJECT_OP, async (wal) => {
      const again = layout(project, folders, items(got));
      if (again.problems.length) throw refusal(project, again.problems);
      const changes = writeLayout(wal, project, again);
      const fetched = [...got.keys()].join(', ');
      return wal.commit({ op: PROJECT_OP, summary: `install of ${fetched} into ${project}`, changes, project }).id;
    });
    return { ...out, applied: true, journalId };
  } finally {
    for (const co of checkouts) co.done();
  }
}
