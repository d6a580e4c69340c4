import fs from 'node:fs';
import path from 'node:path';
import type { CatalogEntry, LaunchProblem, SkillLink } from '../contract/index.js';
import { launchProblem } from './launch-words.js';
import type { ScriptVerdict } from './script-policy.js';
import { isInside } from '../base/extpath.js';

// A skill whose scripts may not run is not linked (a link hands the agent's shell the real folder,
// and no hook can follow a glob, a variable or `find -exec` to it). SkillDock makes a folder of its
// own instead: the instructions and reference files, copied without exec bits, and the blocked
// files absent. The agent reads what the skill says and cannot run what is not there; a note in
// the folder tells it (and the user looking in) why.

/** Read by the agent beside SKILL.md: which files were left out, and why. */
export const WITHHELD_NOTE = 'SCRIPTS-WITHHELD.md';

/** Bounds on what one launch copies; a skill past them is not placed (the launch says so). */
const MAX_FILES = 2000;
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_DEPTH = 32;

export interface Materialized {
  /** Files of the skill left out, relative and `/`-separated, sorted. */
  withheld: string[];
}

/**
 * Copy the skill in `src` to `dest` (which must not exist) without `blocked` files (the skill's
 * executable surface). Left out as well, whatever the inventory said when it was taken: any file
 * under `scripts/`, any file with an exec bit or a `#!` line, and every symlink but a SKILL.md that
 * points inside the skill, so a script changed or added since cannot slip through. Returns the
 * files left out; throws when the skill is past the bounds or cannot be read.
 */
export function materializeSkill(src: string, dest: string, blocked: ReadonlySet<string>, reason: string): Materialized {
  const withheld: string[] = [];
  const budget = { files: 0, bytes: 0 };
  const realSrc = fs.realpathSync(src);
  fs.mkdirSync(dest);
  const walk = (dir: string, rel: string, depth: number) => {
    if (depth > MAX_DEPTH) throw new Error(`${path.join(src, rel)}: folders nested deeper than ${MAX_DEPTH}`);
    for (const d of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${d.name}` : d.name;
      const from = path.join(dir, d.name);
      const to = path.join(dest, ...r.split('/'));
      if (r === WITHHELD_NOTE) continue; // SkillDock's own note takes its place
      if (++budget.files > MAX_FILES) throw new Error(`${src}: more than ${MAX_FILES} files`);
      if (d.isDirectory()) {
        walk(from, r, depth + 1); // made when a file is copied into it: no empty `scripts/` left to find
        continue;
      }
      const file = d.isSymbolicLink() ? (r === 'SKILL.md' ? linkInside(realSrc, from) : null) : d.isFile() ? from : null;
      if (file === null || blocked.has(r) || runnable(r, file)) {
        withheld.push(r);
        continue;
      }
      const size = fs.statSync(file).size;
      budget.bytes += size;
      if (budget.bytes > MAX_BYTES) throw new Error(`${src}: more than ${MAX_BYTES} bytes`);
      if (rel) fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(file, to, fs.constants.COPYFILE_EXCL);
      fs.chmodSync(to, 0o644);
    }
  };
  walk(src, '', 0);
  withheld.sort();
  fs.writeFileSync(path.join(dest, WITHHELD_NOTE), withheldNote(path.basename(dest), withheld, reason), { mode: 0o644 });
  return { withheld };
}

/** The real file a symlink names, when it stays inside the skill; else null. */
function linkInside(realSrc: string, link: string): string | null {
  try {
    const real = fs.realpathSync(link);
    return real !== realSrc && isInside(real, realSrc) && fs.statSync(real).isFile() ? real : null;
  } catch {
    return null;
  }
}

/** Under `scripts/`, an exec bit, or a `#!` first line. */
function runnable(rel: string, file: string): boolean {
  if (rel.startsWith('scripts/')) return true;
  if (rel === 'SKILL.md') return false;
  if (fs.statSync(file).mode & 0o111) return true;
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return fs.readSync(fd, head, 0, 2, 0) === 2 && head.toString('latin1') === '#!';
  } finally {
    fs.closeSync(fd);
  }
}

/** For the model (English, like the context file). */
function withheldNote(name: string, withheld: string[], reason: string): string {
  const files = withheld.length ? withheld.map((f) => `- \`${f}\``).join('\n') : '- (none)';
  return [
    `# Scripts of \`${name}\` withheld by SkillDock`,
    '',
    `SkillDock placed this skill without its scripts: ${reason}.`,
    'Use its instructions and reference files. The files below are not here and must not be run from',
    'anywhere else; ask the user to review and approve the skill in SkillDock if a task needs them.',
    '',
    files,
    '',
  ].join('\n');
}

/** Index mode: only the skills whose scripts may not run get a folder (under `dir`), the others are read where they are. */
export function withholdScripts(
  scripts: ReadonlyMap<string, ScriptVerdict> | undefined,
  dir: string,
  usable: Array<{ name: string; entry: CatalogEntry }>,
  problems: LaunchProblem[],
): SkillLink[] {
  const links: SkillLink[] = [];
  for (const { name, entry } of usable) {
    const verdict = scripts?.get(name);
    if (!verdict || verdict.allowed) continue;
    fs.mkdirSync(dir, { recursive: true });
    links.push(placeWithheld(name, entry.provenance.realPath, path.join(dir, name), verdict, problems));
  }
  return links;
}

/** The skill's own folder without its scripts, at `at` (materialize.ts). */
export function placeWithheld(name: string, target: string, at: string, verdict: ScriptVerdict, problems: LaunchProblem[]): SkillLink {
  try {
    const { withheld } = materializeSkill(target, at, new Set(verdict.blocked ?? []), verdict.reason ?? 'its scripts may not run');
    if (!fs.existsSync(path.join(at, 'SKILL.md'))) throw new Error(`${target}: no SKILL.md inside the skill to copy`);
    return { skill: name, path: at, target, ok: true, materialized: true, withheld };
  } catch (err) {
    const error = `could not place ${name} without its scripts at ${at}: ${(err as Error).message}`;
    problems.push(launchProblem(name, 'link-failed', 'launch.problem.link-failed', { reason: error }));
    return { skill: name, path: at, target, ok: false, error, materialized: true };
  }
}
