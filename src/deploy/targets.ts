import path from 'node:path';
import type { DeployMode } from './types.js';

// Which folder each agent gets a skill in. Several agents read one folder (`~/.agents/skills` is
// read by Codex, Gemini CLI, Qwen Code, Copilot CLI, OpenCode; OpenCode also reads
// `~/.claude/skills`), so a skill placed for one agent can reach others, and placing it in two
// folders one agent reads makes that agent list it twice. The choice is made from the scope's data
// (which agent reads which folder), never from agent names.

/** One agent as a scope sees it: the folders it reads (absolute), and those SkillDock may write. */
export interface ScopeAgent {
  id: string;
  name: string;
  /** Every folder the agent reads skills from in this scope, in the registry's order. */
  reads: string[];
  /** The folders SkillDock may place skills in for it (a subset of `reads`). */
  targets: string[];
  /** How the agent handles one name found twice (`all-listed`: both are listed). */
  sameName: string | null;
}

/**
 * Where deployments go: the user's own agent folders, or a project's (src/deploy is told which).
 * `key` names the scope in the record (`user`, or `project:<abs path>`).
 */
export interface DeployScope {
  key: string;
  agents: ScopeAgent[];
  /** The library folder: a link placed by SkillDock points at `<libraryDir>/<skill>`. */
  libraryDir: string;
}

/** The skills each agent should have, with the mode of each: desired[skill][agentId] = mode. */
export type Desired = Record<string, Record<string, DeployMode>>;

/** One entry SkillDock should keep on disk: `skill` in `folder`, for the agents in `for`. */
export interface Placement {
  skill: string;
  folder: string;
  path: string;
  mode: DeployMode;
  /** Agents that asked for it (desired) and are served by this folder. */
  for: string[];
  /** Every agent that reads this folder (so gets the skill). */
  readers: string[];
  /** A link was asked for, but the folder is on another filesystem than the library: a copy. */
  across?: boolean;
}

export interface TargetChoice {
  placements: Placement[];
  /** Per skill: agents that get it without being asked (they read a folder chosen for another). */
  alsoOn: Record<string, string[]>;
  /** Per skill: agents it cannot be given without one of them listing it twice. */
  unplaceable: Record<string, string[]>;
}

/** Agents reading each folder of the scope. */
export function readersByFolder(scope: DeployScope): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const a of scope.agents) for (const f of a.reads) out.set(f, [...(out.get(f) ?? []), a.id]);
  return out;
}

/**
 * Choose, for every skill, the folders to place it in so that each agent asking for it reads it
 * from exactly one folder, and as few other agents as possible get it too. Agents with the fewest
 * choices go first (Claude Code has one folder: once it is chosen, OpenCode, which reads it too, is
 * served by it instead of getting a second copy in its own folder).
 */
/**
 * Whether an agent lists a skill found in two of its folders twice: Codex (`all-listed`), and any
 * agent whose rule is unknown. The others keep one (OpenCode, Copilot CLI and Gemini CLI were seen
 * listing a skill once with it in both `~/.claude/skills` and `~/.agents/skills`).
 */
export const listsTwice = (a: { sameName: string | null }): boolean => a.sameName === 'all-listed' || a.sameName === null;

/**
 * `twice`: `refuse` (the user's folders) leaves an agent without the skill rather than have one that
 * lists a name twice read it twice (it goes to `unplaceable`); `allow` (a project, where every chosen
 * agent must get the skills) then takes the folder that makes the fewest read it twice.
 */
export function chooseTargets(scope: DeployScope, desired: Desired, opts: { twice?: 'refuse' | 'allow' } = {}): TargetChoice {
  const readers = readersByFolder(scope);
  const order = new Map(scope.agents.map((a, i) => [a.id, i]));
  const out: TargetChoice = { placements: [], alsoOn: {}, unplaceable: {} };
  const twice = new Set(scope.agents.filter(listsTwice).map((a) => a.id));
  for (const skill of Object.keys(desired).sort()) {
    const wanted = scope.agents.filter((a) => desired[skill]![a.id] !== undefined);
    const wantedIds = new Set(wanted.map((a) => a.id));
    wanted.sort((a, b) => a.targets.length - b.targets.length || order.get(a.id)! - order.get(b.id)!);
    const chosen: Placement[] = [];
    const reached = new Set<string>();
    for (const a of wanted) {
      const served = chosen.find((p) => a.reads.includes(p.folder));
      if (served) {
        served.for.push(a.id);
        continue;
      }
      // A folder whose readers already have the skill would make them read it twice: never for an
      // agent that lists both (Codex) or whose rule is unknown; otherwise only when nothing else fits
      // (the agent keeps one of two identical entries: OpenCode reading ~/.claude and ~/.agents).
      const candidates = a.targets.map((f, i) => {
        const rs = readers.get(f) ?? [];
        const again = rs.filter((r) => reached.has(r));
        return {
          f,
          i,
          again: again.length,
          hard: again.filter((r) => twice.has(r)).length,
          side: rs.filter((r) => !wantedIds.has(r)).length,
        };
      });
      const allowed = candidates.filter((x) => !x.hard);
      const best = (allowed.length || opts.twice !== 'allow' ? allowed : candidates).sort(
        (x, y) => x.hard - y.hard || x.again - y.again || x.side - y.side || pref(x.f) - pref(y.f) || x.i - y.i,
      )[0];
      if (!best) {
        (out.unplaceable[skill] ??= []).push(a.id);
        continue;
      }
      const folderReaders = readers.get(best.f) ?? [];
      for (const r of folderReaders) reached.add(r);
      chosen.push({
        skill,
        folder: best.f,
        path: path.join(best.f, skill),
        mode: desired[skill]![a.id]!,
        for: [a.id],
        readers: folderReaders,
      });
    }
    const extra = [...reached].filter((r) => !wantedIds.has(r));
    if (extra.length) out.alsoOn[skill] = extra.sort((x, y) => order.get(x)! - order.get(y)!);
    out.placements.push(...chosen);
  }
  return out;
}

/** `skills` over the older singular `skill` (OpenCode reads both). */
const pref = (folder: string) => (path.basename(folder) === 'skills' ? 0 : 1);
