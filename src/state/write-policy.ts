import os from 'node:os';
import path from 'node:path';
import type { LegacyMapping, LegacyPath, StateDir, WriteDecision } from '../contract/index.js';
import { isInside } from '../base/extpath.js';
import { realpathOfExisting } from './state-dirs.js';
import { systemTree } from './system-folders.js';

// Where an agent may write during a conversation. Denials say why, and a write aimed at a legacy
// home path a skill hard-codes gets the state-dir path it should use instead: the agent corrects
// itself; nothing is ever rewritten behind its back.

export interface PolicyScope {
  /** The conversation's workspace (null when unknown). */
  workspace: string | null;
  stateDirs: StateDir[];
  /** Real skill folders linked into the conversation: read-only. */
  skillDirs: Array<{ name: string; dir: string }>;
  legacy: LegacyMapping[];
  /** Files that hold the write guard itself. */
  guardFiles: string[];
  /** Scratch dirs that are always fine (the OS temp dir). */
  tempDirs: string[];
  userHome: string;
  /** SkillDock's home: its approvals, settings, assistants and journal are never the agent's to write. */
  skilldockHome?: string;
}

/** The user's files an agent must never write, whatever the workspace (relative to the user's home). */
export const SENSITIVE_HOME_PATHS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.config/gcloud',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.gitconfig',
  '.bashrc',
  '.bash_profile',
  '.profile',
  '.zshrc',
  '.zprofile',
  '.config/fish',
];

/** Agent settings files (inside any workspace): writing them could turn the guard off or add hooks. */
export const AGENT_SETTINGS_PATHS = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/hooks',
  '.gemini/settings.json',
  '.codex/config.toml',
  '.qwen/settings.json',
  'opencode.json',
  '.opencode',
];

/** Map the legacy paths lint found in a skill to its state dir (`~/code/x` -> `<state>/x`). */
export function legacyMappings(skill: string, legacyPaths: LegacyPath[], stateDir: string, userHome: string): LegacyMapping[] {
  const out: LegacyMapping[] = [];
  const seen = new Set<string>();
  for (const lp of legacyPaths) {
    const from = lp.path.trim();
    if (!from.startsWith('~/')) continue;
    let display: string;
    let to: string;
    if (from.endsWith('/')) {
      display = from;
      to = stateDir + path.sep;
    } else {
      const parent = path.posix.dirname(from);
      if (parent === '~') {
        // A file straight in home (`~/.tool.json`): map that file only, never all of home.
        display = from;
        to = path.join(stateDir, path.posix.basename(from));
      } else {
        display = `${parent}/`;
        to = stateDir + path.sep;
      }
    }
    const abs = path.resolve(expandTilde(display.replace(/\/+$/, ''), userHome));
    const fromPath = display.endsWith('/') ? abs + path.sep : abs;
    if (seen.has(fromPath)) continue;
    seen.add(fromPath);
    out.push({ skill, from: display, fromPath, to });
  }
  return out;
}

export function expandTilde(p: string, userHome: string): string {
  if (p === '~') return userHome;
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(userHome, p.slice(2));
  return p;
}

/** Real path form of a root, so links (e.g. /tmp -> /private/tmp) compare equal. */
function real(p: string): string {
  return realpathOfExisting(p);
}

export function checkWrite(scope: PolicyScope, target: string, cwd?: string): Omit<WriteDecision, 'conversationId'> {
  const base = cwd ?? scope.workspace ?? process.cwd();
  const abs = path.resolve(base, expandTilde(target, scope.userHome));
  const resolved = real(abs);
  const decide = (allowed: boolean, rule: WriteDecision['rule'], reason: string, extra: Partial<WriteDecision> = {}) => ({
    path: abs,
    allowed,
    rule,
    reason,
    ...extra,
  });

  for (const s of scope.skillDirs) {
    if (isInside(resolved, real(s.dir))) {
      const st = scope.stateDirs.find((d) => d.skill === s.name);
      const hint = st ? ` Write its files to its state dir ${st.dir}${path.sep} instead.` : '';
      return decide(false, 'skill-folder', `Skill folders are read-only: ${abs} is inside skill "${s.name}".${hint}`, {
        skill: s.name,
        ...(st ? { redirect: path.join(st.dir, path.relative(real(s.dir), resolved)) } : {}),
      });
    }
  }
  for (const g of scope.guardFiles) {
    if (resolved === real(g)) {
      return decide(false, 'guard-file', `${abs} holds SkillDock's write guard for this conversation and must not be changed.`);
    }
  }
  for (const d of scope.stateDirs) {
    if (isInside(resolved, real(d.dir))) {
      return decide(true, 'state-dir', `Inside the state dir of skill "${d.skill}".`, { skill: d.skill });
    }
  }
  const protectedBy = protectedPath(scope, abs, resolved);
  if (protectedBy) return decide(false, 'protected', protectedBy);
  if (scope.workspace && isInside(resolved, real(scope.workspace))) {
    return decide(true, 'workspace', 'Inside the conversation workspace.');
  }
  const legacy = matchLegacy(scope.legacy, abs, resolved);
  if (legacy) {
    return decide(
      false,
      'legacy-path',
      `${legacy.mapping.from} is a legacy path of skill "${legacy.mapping.skill}"; its state lives in ${legacy.mapping.to}. Write to ${legacy.redirect} instead.`,
      { redirect: legacy.redirect, skill: legacy.mapping.skill },
    );
  }
  for (const t of scope.tempDirs) {
    if (isInside(resolved, real(t))) return decide(true, 'temp', 'Inside the temp dir.');
  }
  const where = scope.stateDirs.length
    ? ` Persistent skill files go to the skills' state dirs (${scope.stateDirs.map((d) => d.dir).join(', ')}).`
    : '';
  return decide(false, 'outside', `${abs} is outside the workspace, the skills' state dirs and the temp dir.${where}`);
}

/** Why `abs` is never writable, whatever the workspace; null when it is not protected. */
function protectedPath(scope: PolicyScope, abs: string, resolved: string): string | null {
  const under = (base: string) => isInside(abs, base) || isInside(resolved, base) || isInside(resolved, real(base));
  const home = scope.userHome;
  for (const rel of SENSITIVE_HOME_PATHS) {
    const p = path.join(home, rel);
    if (under(p)) return `${abs} is one of the user's private files (~/${rel}); no agent writes it.`;
  }
  // The operating system's own trees, even inside a workspace (a launch refuses them as one).
  const system = systemTree(abs) ?? systemTree(resolved);
  if (system) return `${abs} is inside the system folder ${system}; no agent writes it.`;
  const roots = [scope.workspace, home].filter((d): d is string => d !== null);
  for (const root of roots) {
    for (const rel of AGENT_SETTINGS_PATHS) {
      const p = path.join(root, rel);
      if (under(p)) return `${abs} is an agent settings file; writing it could turn the write guard off.`;
    }
  }
  const sd = scope.skilldockHome;
  if (sd && under(sd)) {
    // A temporary workspace lives in SkillDock's home: inside it the agent may write.
    const inWorkspace = scope.workspace !== null && isInside(resolved, real(scope.workspace)) && !isInside(real(sd), real(scope.workspace));
    if (!inWorkspace) return `${abs} is inside SkillDock's home (approvals, settings, assistants, the journal); no agent writes it.`;
  }
  return null;
}

function matchLegacy(legacy: LegacyMapping[], abs: string, resolved: string): { mapping: LegacyMapping; redirect: string } | null {
  let best: { mapping: LegacyMapping; redirect: string } | null = null;
  for (const m of legacy) {
    const isDir = m.fromPath.endsWith(path.sep);
    for (const candidate of [abs, resolved]) {
      let rest: string | null = null;
      if (isDir) {
        const dir = m.fromPath.slice(0, -1);
        if (candidate === dir) rest = '';
        else if (candidate.startsWith(m.fromPath)) rest = candidate.slice(m.fromPath.length);
      } else if (candidate === m.fromPath) {
        rest = '';
      }
      if (rest === null) continue;
      const redirect = isDir ? path.join(m.to, rest) : m.to;
      if (!best || m.fromPath.length > best.mapping.fromPath.length) best = { mapping: m, redirect };
      break;
    }
  }
  return best;
}

export function defaultTempDirs(): string[] {
  const dirs = new Set([os.tmpdir()]);
  if (process.platform !== 'win32') dirs.add('/tmp');
  return [...dirs];
}
