import fs from 'node:fs';
import path from 'node:path';
import type { CatalogEntry, Conversation, LaunchProblem, LaunchResult, LegacyMapping, SkillLink, StateDir } from '../contract/index.js';
import type { AgentDef } from '../agents/registry.js';
import { fail } from '../errors.js';
import { launchProblem, scriptWhy } from './launch-words.js';
import { ensureStateDir, isInside, realpathOfExisting, stateDirFor, stateRoot, stateUri } from '../state/state-dirs.js';
import { legacyMappings } from '../state/write-policy.js';
import { linkSkill, removeTreeNoFollow } from './links.js';
import { renderContextFile, renderFirstMessage, renderStateRules } from './context-file.js';
import { conversationDataDir, createUniqueDir, newConversationId, workspacesRoot } from './conversations.js';
import { writeGuardSettings, type CliInvocation } from './write-guard.js';
import type { GuardHookGroup, ScriptVerdict } from './script-policy.js';

// One launch: a conversation id, the skills linked where the agent looks for them natively (or an
// index when that is impossible without touching the user's project), a state dir per skill, the
// context file, the command. Pure file work on the given paths; recording is the caller's job.

export interface LaunchSkill {
  name: string;
  missing: boolean;
  entry: CatalogEntry | null;
}

export interface LaunchSpec {
  home: string;
  userHome: string;
  agent: AgentDef;
  assistant: { id: string; name: string; rules: string };
  skills: LaunchSkill[];
  /** The user's project; absent = a fresh temporary workspace. */
  workspace?: string;
  /** How the write guard calls `skilldock policy check-write` (null: no guard possible). */
  cli: CliInvocation | null;
  scripts?: Map<string, ScriptVerdict>;
  /** More hook groups for the agent's write guard settings (from security). */
  guardHooks?: GuardHookGroup[];
  now?: Date;
}

export interface LaunchOutcome {
  result: LaunchResult;
  conversation: Conversation;
}

const SAFE_DIR_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

export function launchWorkspace(spec: LaunchSpec): LaunchOutcome {
  const { home } = spec;
  const now = spec.now ?? new Date();
  const temporary = spec.workspace === undefined;
  let workspace: string;
  let id: string;
  if (temporary) {
    ({ id, dir: workspace } = createUniqueDir(workspacesRoot(home), spec.assistant.name, now));
  } else {
    workspace = checkUserWorkspace(spec.workspace!, home, spec.userHome);
    id = newConversationId(spec.assistant.name, now);
  }
  const dataDir = conversationDataDir(home, id);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    return buildWorkspace(spec, { id, workspace, temporary, dataDir, now });
  } catch (err) {
    // A launch that fails half-way leaves nothing behind that cleanup would not know: the links and
    // files it made are removed (links unlinked, never followed). A user's project is never touched.
    if (temporary) removeTreeNoFollow(workspace);
    removeTreeNoFollow(dataDir);
    throw err;
  }
}

interface Made {
  id: string;
  workspace: string;
  temporary: boolean;
  dataDir: string;
  now: Date;
}

function buildWorkspace(spec: LaunchSpec, { id, workspace, temporary, dataDir, now }: Made): LaunchOutcome {
  const { agent, home } = spec;
  const problems: LaunchProblem[] = [];
  const usable = pickUsable(spec.skills, problems);

  // Where the skills go: the workspace's native dir, a per-conversation view the agent loads via
  // its extra-dir flag, or nowhere (index mode: the first message lists each skill's real folder).
  const flag = agent.extraDirFlag;
  const viewLoads = !temporary && flag?.loadsSkills === true;
  const mode: 'native' | 'index' = temporary || viewLoads ? 'native' : 'index';
  const linkRoot = temporary ? workspace : viewLoads ? path.join(dataDir, 'view') : null;
  const skillsDir = linkRoot ? path.join(linkRoot, temporary ? agent.nativeSkillsDir : (flag?.skillsDir ?? agent.nativeSkillsDir)) : null;

  const links: SkillLink[] = [];
  if (skillsDir) {
    // A fresh temporary workspace is empty: make each folder down to the skills dir, no probing.
    if (temporary) mkdirsBelow(workspace, agent.nativeSkillsDir);
    else fs.mkdirSync(skillsDir, { recursive: true });
    const prefix = skillsDir + path.sep;
    for (const { name, entry } of usable) {
      const linkPath = prefix + name; // a safe folder name (pickUsable): nothing for path.join to normalise
      const target = entry.provenance.realPath;
      const error = linkSkill(target, linkPath);
      links.push(error ? { skill: name, path: linkPath, target, ok: false, error } : { skill: name, path: linkPath, target, ok: true });
      if (error) problems.push(launchProblem(name, 'link-failed', 'launch.problem.link-failed', { reason: error }));
    }
  }

  const stateDirs: StateDir[] = [];
  const legacy: LegacyMapping[] = [];
  const present = stateDirsPresent(home);
  for (const { name, entry } of usable) {
    if (!entry.stateId) {
      problems.push(launchProblem(name, 'no-state-id', 'launch.problem.no-state-id', { skill: name }));
      continue;
    }
    try {
      const dir = present.has(entry.stateId) ? stateDirFor(home, entry.stateId) : ensureStateDir(home, entry.stateId);
      stateDirs.push({ skill: name, id: entry.stateId, dir, uri: stateUri(entry.stateId) });
      legacy.push(...legacyMappings(name, entry.legacyPaths, dir, spec.userHome));
    } catch (err) {
      problems.push(launchProblem(name, 'no-state-id', 'launch.problem.state-dir', { skill: name, reason: (err as Error).message }));
    }
  }

  let stateRules = renderStateRules(stateDirs, legacy, skillsDir && temporary ? agent.nativeSkillsDir : null);
  for (const { name } of usable) {
    const verdict = spec.scripts?.get(name);
    if (verdict && !verdict.allowed) {
      const why = verdict.reason ?? 'not allowed by the script policy';
      problems.push(launchProblem(name, 'script-blocked', 'launch.problem.script-blocked', { skill: name, why: scriptWhy(why) }));
      stateRules += `- Do not run any script of skill \`${name}\`: ${why}\n`;
    }
  }

  let contextFile: string | null = null;
  let firstMessage: string | undefined;
  if (mode === 'native') {
    contextFile = path.join(linkRoot!, agent.contextFile);
    // A custom agent's context file may sit in a folder (`docs/AGENT.md`): make it, inside what SkillDock made.
    fs.mkdirSync(path.dirname(contextFile), { recursive: true });
    fs.writeFileSync(contextFile, renderContextFile(spec.assistant.name, spec.assistant.rules, stateRules));
  } else {
    firstMessage = renderFirstMessage(
      spec.assistant.name,
      spec.assistant.rules,
      stateRules,
      usable.map(({ name, entry }) => ({ name, description: entry.description, dir: entry.provenance.realPath })),
    );
    // Kept beside the conversation so --exec and the terminal launcher can hand it over later.
    fs.writeFileSync(path.join(dataDir, 'first-message.md'), firstMessage);
  }

  // The write guard: in a temporary workspace the agent's own settings file; for a user's project a
  // settings file beside the conversation's data, loaded with the agent's settings flag, or named by
  // its settings variable (Gemini CLI and Qwen Code read a "system defaults" file from one).
  const guardFiles: string[] = [];
  const guardArgs: string[] = [];
  const guardEnv: Record<string, string> = {};
  const guard = agent.writeGuard;
  if (guard && (temporary || guard.settingsFlag || guard.settingsEnv)) {
    if (!spec.cli) {
      problems.push(launchProblem(null, 'guard', 'launch.problem.guard'));
    } else {
      const file = temporary ? path.join(workspace, guard.settingsFile) : path.join(dataDir, 'guard-settings.json');
      // In a temporary workspace the settings file usually sits in the folder just made for the skills.
      const dirReady = temporary && skillsDir !== null && isInside(skillsDir, path.dirname(file));
      writeGuardSettings(file, guard, spec.cli, { home, userHome: spec.userHome, conversationId: id }, spec.guardHooks, dirReady);
      guardFiles.push(file);
      if (!temporary && guard.settingsFlag) guardArgs.push(guard.settingsFlag, file);
      else if (!temporary) guardEnv[guard.settingsEnv!] = file;
    }
  }

  const extraDirs = [
    ...(viewLoads ? [linkRoot!] : []),
    // Index mode: an agent that reads outside its workspace only through the flag gets the skill folders.
    ...(mode === 'index' && flag?.neededToRead ? usable.map((s) => s.entry.provenance.realPath) : []),
    ...stateDirs.map((d) => d.dir),
  ];
  const command = [...buildCommand(agent, extraDirs), ...(buildCommand(agent, []).length ? guardArgs : [])];
  const env: Record<string, string> = {
    ...agent.env,
    // Trust for this session only (nothing written to the project or the agent's trusted-folders
    // list): without it headless Gemini refuses to run in a user's project (observed on 0.61.0).
    ...agent.trustEnv,
    ...(viewLoads ? (flag?.contextEnv ?? {}) : {}),
    ...guardEnv,
  };

  const result: LaunchResult = {
    conversationId: id,
    workspace,
    temporary,
    mode,
    agent: agent.id,
    links,
    stateDirs,
    contextFile,
    command,
    env,
    ...(firstMessage !== undefined ? { firstMessage } : {}),
    legacy,
    problems,
  };
  const conversation: Conversation = {
    id,
    assistantId: spec.assistant.id,
    assistantName: spec.assistant.name,
    agent: agent.id,
    mode,
    temporary,
    workspace,
    dataDir,
    contextFile,
    createdAt: now.toISOString(),
    skills: usable.map(({ name, entry }) => ({ name, digest: entry.digest, dir: entry.provenance.realPath, stateId: entry.stateId })),
    stateDirs,
    legacy,
    guardFiles,
    command,
    env,
    removedAt: null,
  };
  return { result, conversation };
}

/** Make `rel`'s folders one by one under `base`, a folder this launch just created (so none exists yet). */
function mkdirsBelow(base: string, rel: string): void {
  let dir = base;
  for (const part of rel.split(/[\\/]+/)) {
    if (!part || part === '.') continue;
    dir = path.join(dir, part);
    try {
      fs.mkdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      fs.mkdirSync(dir, { recursive: true }); // EEXIST: fine if a folder, throws if not
    }
  }
}

/**
 * The plain folders in `<home>/skills-state`, so a launch does not stat each skill's state dir: one
 * stat of skills-state, and a listing only when an entry may have come or gone since the last one
 * (its mtime or inode moved, or it was listed within the same few seconds as its last change, when
 * a later change could keep the same mtime). Whatever is not listed goes through `ensureStateDir`.
 */
const presentCache = new Map<string, { key: string; names: Set<string> }>();
const EMPTY = new Set<string>();
const RACY_MS = 2000;

function stateDirsPresent(home: string): Set<string> {
  const root = stateRoot(home);
  const st = fs.statSync(root, { throwIfNoEntry: false });
  if (!st?.isDirectory()) {
    presentCache.delete(root);
    return EMPTY;
  }
  const key = `${st.dev}:${st.ino}:${st.mtimeMs}`;
  const hit = presentCache.get(root);
  if (hit && hit.key === key) return hit.names;
  const names = new Set<string>();
  const started = Date.now();
  try {
    for (const d of fs.readdirSync(root, { withFileTypes: true })) if (d.isDirectory()) names.add(d.name);
  } catch {
    return EMPTY;
  }
  if (st.mtimeMs < started - RACY_MS) {
    if (presentCache.size > 16) presentCache.clear();
    presentCache.set(root, { key, names });
  } else presentCache.delete(root);
  return names;
}

function checkUserWorkspace(dir: string, home: string, userHome: string): string {
  const abs = path.resolve(dir);
  let st: fs.Stats;
  try {
    st = fs.statSync(abs);
  } catch {
    throw fail('not-found', 'launch.workspace-missing', { path: abs });
  }
  if (!st.isDirectory()) throw fail('bad-request', 'launch.workspace-not-dir', { path: abs });
  // The agent may write anywhere in its workspace: never the whole disk, the user's home or SkillDock's own files.
  const real = fs.realpathSync(abs);
  const realHome = realpathOfExisting(home);
  if (real === path.parse(real).root) throw fail('bad-request', 'launch.workspace-root', { path: abs });
  if (real === realpathOfExisting(userHome)) throw fail('bad-request', 'launch.workspace-home', { path: abs });
  if (isInside(realHome, real) || (isInside(real, realHome) && !isInside(real, realpathOfExisting(workspacesRoot(home))))) {
    throw fail('bad-request', 'launch.workspace-skilldock', { path: abs });
  }
  const rel = path.relative(workspacesRoot(home), abs);
  if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) {
    throw fail('bad-request', 'launch.workspace-temporary', { path: abs });
  }
  return abs;
}

function pickUsable(skills: LaunchSkill[], problems: LaunchProblem[]): Array<{ name: string; entry: CatalogEntry }> {
  const seen = new Set<string>();
  const out: Array<{ name: string; entry: CatalogEntry }> = [];
  for (const s of skills) {
    if (s.missing || !s.entry) {
      problems.push(launchProblem(s.name, 'missing', 'launch.problem.missing', { skill: s.name }));
      continue;
    }
    const name = s.entry.name;
    if (!SAFE_DIR_NAME.test(name) || name.includes('..')) {
      problems.push(launchProblem(name, 'bad-name', 'launch.problem.bad-name', { skill: name }));
      continue;
    }
    const key = name.toLowerCase(); // case-insensitive file systems would merge these
    if (seen.has(key)) {
      problems.push(launchProblem(name, 'duplicate-name', 'launch.problem.duplicate-name', { skill: name }));
      continue;
    }
    seen.add(key);
    out.push({ name, entry: s.entry });
  }
  return out;
}

/** argv of the agent with its extra-dir flag; a custom command may carry its own arguments. */
export function buildCommand(agent: AgentDef, extraDirs: string[]): string[] {
  const argv = agent.command ? agent.command.trim().split(/\s+/) : [];
  const flag = agent.extraDirFlag;
  if (!argv.length || !flag || !extraDirs.length) return argv;
  if (flag.style === 'comma') return [...argv, flag.flag, extraDirs.join(',')];
  return [...argv, ...extraDirs.flatMap((d) => [flag.flag, d])];
}
