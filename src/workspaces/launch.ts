import fs from 'node:fs';
import path from 'node:path';
import type { CatalogEntry, Conversation, LaunchProblem, LaunchResult, LegacyMapping, SkillLink, StateDir } from '../contract/index.js';
import type { AgentDef } from '../agents/registry.js';
import { fail } from '../errors.js';
import { launchProblem, scriptWhy } from './launch-words.js';
import { isInside } from '../base/extpath.js';
import { ensureStateDir, realpathOfExisting, stateDirFor, stateUri } from '../state/state-dirs.js';
import { stateDirsPresent } from './state-dirs-present.js';
import { legacyMappings } from '../state/write-policy.js';
import { linkSkill, removeTreeNoFollow } from './links.js';
import { placeWithheld, withholdScripts } from './materialize.js';
import { agentSandbox, type SandboxWiring } from './agent-sandbox.js';
import { renderContextFile, renderFirstMessage, renderStateRules } from './context-file.js';
import { conversationDataDir, createUniqueDir, newConversationId, workspacesRoot } from './conversations.js';
import { codexHookArgs, guardGroups, writeGuardSettings, type CliInvocation } from './write-guard.js';
import type { GuardHookGroup, ScriptVerdict } from './script-policy.js';
import { systemFolderOf } from '../state/system-folders.js';

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

type Usable = { name: string; entry: CatalogEntry };
/** A usable skill and the folder the agent reads it from (its real folder, or the one SkillDock made without its scripts). */
type Placed = Usable & { dir: string };

/**
 * Where the skills go: the temporary workspace's native dir, a per-conversation view the agent loads
 * via its extra-dir flag (native mode), or nowhere (index mode: the first message lists each skill's
 * real folder).
 */
type Placement =
  | { mode: 'native'; viewLoads: boolean; linkRoot: string; skillsDir: string }
  | { mode: 'index'; viewLoads: false; linkRoot: null; skillsDir: null };

/** What the write guard adds to the launch: its settings files, and how the agent is told of them. */
interface GuardWiring {
  files: string[];
  args: string[];
  env: Record<string, string>;
}

function buildWorkspace(spec: LaunchSpec, made: Made): LaunchOutcome {
  const problems: LaunchProblem[] = [];
  const usable = pickUsable(spec.skills, problems);
  const place = placeSkills(spec.agent, made);
  const links = place.skillsDir
    ? linkSkills(spec, made, place.skillsDir, usable, problems)
    : withholdScripts(spec.scripts, path.join(made.dataDir, 'skills'), usable, problems);
  // Index mode: a skill whose scripts may not run is read from the folder SkillDock made for it.
  const readFrom = new Map(links.filter((l) => l.materialized && l.ok).map((l) => [l.skill, l.path]));
  const indexed = usable.map((u) => ({ ...u, dir: readFrom.get(u.name) ?? u.entry.provenance.realPath }));
  const { stateDirs, legacy } = prepareStateDirs(spec, usable, problems);
  const stateRules =
    renderStateRules(stateDirs, legacy, made.temporary ? spec.agent.nativeSkillsDir : null) + scriptRefusals(spec, usable, problems);
  const { contextFile, firstMessage } = writeInstructions(spec, made, place, indexed, stateRules);
  const guard = writeGuard(
    spec,
    made,
    place.skillsDir,
    problems,
    agentSandbox(spec.agent, spec.home, stateDirs, hiddenFolders(spec, usable)),
  );
  const { command, env } = agentInvocation(spec.agent, place, indexed, stateDirs, guard);

  const result: LaunchResult = {
    conversationId: made.id,
    workspace: made.workspace,
    temporary: made.temporary,
    mode: place.mode,
    agent: spec.agent.id,
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
    id: made.id,
    assistantId: spec.assistant.id,
    assistantName: spec.assistant.name,
    agent: spec.agent.id,
    mode: place.mode,
    temporary: made.temporary,
    workspace: made.workspace,
    dataDir: made.dataDir,
    contextFile,
    createdAt: made.now.toISOString(),
    skills: usable.map(({ name, entry }) => ({ name, digest: entry.digest, dir: entry.provenance.realPath, stateId: entry.stateId })),
    stateDirs,
    legacy,
    guardFiles: guard.files,
    command,
    env,
    removedAt: null,
  };
  return { result, conversation };
}

function placeSkills(agent: AgentDef, { workspace, temporary, dataDir }: Made): Placement {
  if (temporary) return { mode: 'native', viewLoads: false, linkRoot: workspace, skillsDir: path.join(workspace, agent.nativeSkillsDir) };
  const flag = agent.extraDirFlag;
  if (flag?.loadsSkills !== true) return { mode: 'index', viewLoads: false, linkRoot: null, skillsDir: null };
  const view = path.join(dataDir, 'view');
  return { mode: 'native', viewLoads: true, linkRoot: view, skillsDir: path.join(view, flag.skillsDir ?? agent.nativeSkillsDir) };
}

/**
 * Link each usable skill into `skillsDir`, making the folders first; a skill whose scripts may not
 * run gets a folder of SkillDock's own instead (`placeWithheld`). A link that fails is a problem,
 * not a refusal.
 */
function linkSkills(spec: LaunchSpec, made: Made, skillsDir: string, usable: Usable[], problems: LaunchProblem[]): SkillLink[] {
  // A fresh temporary workspace is empty: make each folder down to the skills dir, no probing.
  if (made.temporary) mkdirsBelow(made.workspace, spec.agent.nativeSkillsDir);
  else fs.mkdirSync(skillsDir, { recursive: true });
  const prefix = skillsDir + path.sep;
  const links: SkillLink[] = [];
  for (const { name, entry } of usable) {
    const linkPath = prefix + name; // a safe folder name (pickUsable): nothing for path.join to normalise
    const target = entry.provenance.realPath;
    const verdict = spec.scripts?.get(name);
    if (verdict && !verdict.allowed) {
      links.push(placeWithheld(name, target, linkPath, verdict, problems));
      continue;
    }
    const error = linkSkill(target, linkPath);
    links.push(error ? { skill: name, path: linkPath, target, ok: false, error } : { skill: name, path: linkPath, target, ok: true });
    if (error) problems.push(launchProblem(name, 'link-failed', 'launch.problem.link-failed', { reason: error }));
  }
  return links;
}

/** Each usable skill's state dir (made when missing) and the legacy paths mapped into it. */
function prepareStateDirs(
  spec: LaunchSpec,
  usable: Usable[],
  problems: LaunchProblem[],
): { stateDirs: StateDir[]; legacy: LegacyMapping[] } {
  const { home } = spec;
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
  return { stateDirs, legacy };
}

/** One rule line per skill whose scripts the policy blocks (each also a problem). */
function scriptRefusals(spec: LaunchSpec, usable: Usable[], problems: LaunchProblem[]): string {
  let rules = '';
  for (const { name } of usable) {
    const verdict = spec.scripts?.get(name);
    if (verdict && !verdict.allowed) {
      const why = verdict.reason ?? 'not allowed by the script policy';
      problems.push(launchProblem(name, 'script-blocked', 'launch.problem.script-blocked', { skill: name, why: scriptWhy(why) }));
      // Nothing but the rules stands between this agent and the library's copy: say so at launch.
      if (!spec.agent.writeGuard && !spec.agent.sandbox?.hidesFolders)
        problems.push(launchProblem(name, 'script-advisory', 'launch.problem.script-advisory', { skill: name, agent: spec.agent.name }));
      rules += `- Do not run any script of skill \`${name}\`: ${why}\n`;
    }
  }
  return rules;
}

/** The assistant's rules: the context file in native mode, else the first message (kept beside the conversation). */
function writeInstructions(
  spec: LaunchSpec,
  made: Made,
  place: Placement,
  usable: Placed[],
  stateRules: string,
): { contextFile: string | null; firstMessage?: string } {
  const { name, rules } = spec.assistant;
  if (place.mode === 'native') {
    const contextFile = path.join(place.linkRoot, spec.agent.contextFile);
    // A custom agent's context file may sit in a folder (`docs/AGENT.md`): make it, inside what SkillDock made.
    fs.mkdirSync(path.dirname(contextFile), { recursive: true });
    fs.writeFileSync(contextFile, renderContextFile(name, rules, stateRules));
    return { contextFile };
  }
  const firstMessage = renderFirstMessage(
    name,
    rules,
    stateRules,
    usable.map(({ name, entry, dir }) => ({ name, description: entry.description, dir })),
  );
  // Kept beside the conversation so --exec and the terminal launcher can hand it over later.
  fs.writeFileSync(path.join(made.dataDir, 'first-message.md'), firstMessage);
  return { contextFile: null, firstMessage };
}

/** The real folders of the skills whose scripts may not run (the library copies the agent's sandbox hides). */
function hiddenFolders(spec: LaunchSpec, usable: Usable[]): string[] {
  return usable.filter((u) => spec.scripts?.get(u.name)?.allowed === false).map((u) => u.entry.provenance.realPath);
}

/**
 * The write guard: in a temporary workspace the agent's own settings file; for a user's project a
 * settings file beside the conversation's data, loaded with the agent's settings flag, or named by
 * its settings variable (Gemini CLI and Qwen Code read a "system defaults" file from one). Codex
 * takes the hook (and its trust in it) as `-c` arguments instead, wherever it runs: no file.
 */
function writeGuard(
  spec: LaunchSpec,
  made: Made,
  skillsDir: string | null,
  problems: LaunchProblem[],
  sandbox: SandboxWiring,
): GuardWiring {
  const wiring: GuardWiring = { files: [], args: [], env: {} };
  const guard = spec.agent.writeGuard;
  const { temporary } = made;
  const settingsFile = temporary ? guard?.settingsFile : null;
  if (!guard || !(settingsFile || guard.settingsFlag || guard.settingsEnv || guard.configFlag)) return wiring;
  if (!spec.cli) {
    problems.push(launchProblem(null, 'guard', 'launch.problem.guard'));
    wiring.args.push(...sandbox.args); // a sandbox given as arguments needs no hook
    return wiring;
  }
  const context = { home: spec.home, userHome: spec.userHome, conversationId: made.id, agent: spec.agent.id };
  if (guard.configFlag) {
    wiring.args.push(...codexHookArgs(guard.configFlag, guardGroups(guard, spec.cli, context, spec.guardHooks)), ...sandbox.args);
    return wiring;
  }
  const file = settingsFile ? path.join(made.workspace, settingsFile) : path.join(made.dataDir, 'guard-settings.json');
  // In a temporary workspace the settings file usually sits in the folder just made for the skills.
  const dirReady = temporary && skillsDir !== null && isInside(skillsDir, path.dirname(file));
  writeGuardSettings(file, guard, spec.cli, context, spec.guardHooks, dirReady, sandbox.settings ?? undefined);
  wiring.files.push(file);
  if (!settingsFile && guard.settingsFlag) wiring.args.push(guard.settingsFlag, file);
  else if (!settingsFile) wiring.env[guard.settingsEnv!] = file;
  return wiring;
}

/** The agent's argv and environment: extra dirs (view, skill folders in index mode, state dirs) and the guard's wiring. */
function agentInvocation(
  agent: AgentDef,
  place: Placement,
  usable: Placed[],
  stateDirs: StateDir[],
  guard: GuardWiring,
): { command: string[]; env: Record<string, string> } {
  const flag = agent.extraDirFlag;
  const extraDirs = [
    ...(place.viewLoads ? [place.linkRoot] : []),
    // Index mode: an agent that reads outside its workspace only through the flag gets the skill folders.
    ...(place.mode === 'index' && flag?.neededToRead ? usable.map((s) => s.dir) : []),
    ...stateDirs.map((d) => d.dir),
  ];
  const command = [...buildCommand(agent, extraDirs), ...(buildCommand(agent, []).length ? guard.args : [])];
  const env: Record<string, string> = {
    ...agent.env,
    // Trust for this session only (nothing written to the project or the agent's trusted-folders
    // list): without it headless Gemini refuses to run in a user's project (observed on 0.61.0).
    ...agent.trustEnv,
    ...(place.viewLoads ? (flag?.contextEnv ?? {}) : {}),
    ...guard.env,
  };
  return { command, env };
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
  // Both spellings: /etc is /private/etc on macOS, and a link may lead into a system tree.
  const system = systemFolderOf(abs) ?? systemFolderOf(real);
  if (system) throw fail('bad-request', 'launch.workspace-system', { path: abs, folder: system });
  if (isInside(realHome, real) || (isInside(real, realHome) && !isInside(real, realpathOfExisting(workspacesRoot(home))))) {
    throw fail('bad-request', 'launch.workspace-skilldock', { path: abs });
  }
  if (isInside(abs, workspacesRoot(home))) {
    throw fail('bad-request', 'launch.workspace-temporary', { path: abs });
  }
  return abs;
}

function pickUsable(skills: LaunchSkill[], problems: LaunchProblem[]): Usable[] {
  const seen = new Set<string>();
  const out: Usable[] = [];
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
