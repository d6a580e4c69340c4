import type { MessageRef } from '../contract/index.js';
import { fail, type SkillDockError } from '../errors.js';
import { layoutProblem } from '../library/archive.js';
import { runGit } from './git.js';

// The names a checkout holds, as git records them (not as the disk shows them: on a
// case-insensitive disk `SKILL.md` and `skill.md` are already one file after checkout), checked by
// the rule archives follow (library/archive.ts layoutProblem): one rule for every source.

/** Every file path of HEAD's tree in the repository at `dir`, `/`-separated. */
export async function treeFiles(dir: string): Promise<string[]> {
  const { stdout } = await runGit(['ls-tree', '-r', '-z', '--name-only', '--full-tree', 'HEAD'], { cwd: dir });
  return stdout.split('\0').filter(Boolean);
}

/** The refusal for a skill folder `under` ('' = the root) whose names could not land on every disk, or null. */
export function layoutRefusal(files: readonly string[], under: string, source: string): SkillDockError | null {
  const mine = under ? files.filter((f) => f.startsWith(`${under}/`)).map((f) => f.slice(under.length + 1)) : [...files];
  const problem = layoutProblem(mine);
  if (!problem) return null;
  const why: MessageRef = { key: `archive.${problem.why}`, params: problem.params };
  return fail('refused', 'sources.layout-refused', { source, why });
}
