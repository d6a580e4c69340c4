import fs from 'node:fs';
import path from 'node:path';
import type { LaunchResult } from '../../src/contract/index.js';
import type { AgentFixture } from './fixture.js';

// What a model that tries asks a guarded agent's shell for (issue 25 and issue 32, break 3): one
// shell command each, in forms that name no protected path a hook could match. Each form writes
// its own marker file in the workspace (the one place every sandbox lets the shell write), so the
// test reads which forms ran.

/** Five indirect ways to run xrunner's `scripts/x.sh`, in the workspace (`ws`) and in the library (`lib`). */
export const FORMS = ['ws-glob', 'glob', 'variable', 'find-exec', 'substitution', 'tmp-copy'] as const;
export type Form = (typeof FORMS)[number];

/** One command line trying every form; `skillsDir` is the agent's skills dir inside the workspace. */
export function indirectCommand(lib: string, skillsDir: string, without: Form[] = []): string {
  const L = `L=${lib}`;
  const skip = (line: string) => !without.some((f) => line.includes(`m-${f}.txt`));
  return [
    `${L}; W=${skillsDir}`,
    'sh $W/xrun*/scripts/x.sh > m-ws-glob.txt 2>&1',
    'sh $L/xrun*/scripts/x.sh > m-glob.txt 2>&1',
    'd=$L/xrun; sh "${d}ner/scripts/x.sh" > m-variable.txt 2>&1',
    "find -L $L $W -path '*xrun*' -name 'x.*' -exec sh {} \\; > m-find-exec.txt 2>&1",
    'sh "$(printf %s $L/xrunne)r/scripts/x.sh" > m-substitution.txt 2>&1',
    't=${TMPDIR:-/tmp}/sd-copy-$$.sh; cp $L/xrun*/scripts/x.sh $t > m-tmp-copy.txt 2>&1; sh $t >> m-tmp-copy.txt 2>&1; rm $t',
    'true',
  ]
    .filter(skip)
    .join('; ');
}

/** The forms whose marker shows the script's output. */
export function formsThatRan(workspace: string): Form[] {
  return FORMS.filter((f) => {
    const file = path.join(workspace, `m-${f}.txt`);
    return fs.existsSync(file) && fs.readFileSync(file, 'utf8').includes('x-ok from');
  });
}

/** The library forms: what a shell that goes looking runs where no sandbox hides the library copy. */
export const LIBRARY_FORMS: Form[] = FORMS.filter((f) => f !== 'ws-glob');

/** The forms whose marker file the shell wrote at all (a command that ran, whatever it printed). */
export function formsAttempted(workspace: string): Form[] {
  return FORMS.filter((f) => fs.existsSync(path.join(workspace, `m-${f}.txt`)));
}

/** SkillDock's files that decide trust, and a state dir the agent may write. */
export interface HomeProbe {
  command: string;
  /** The protected files' bytes before the command. */
  before: Record<string, string>;
  /** Where the command leaves a file if it ran at all. */
  stateProbe: string;
}

/**
 * Break 3's forms against approvals.json and settings.json (none of them a plain `> path` the hook
 * reads), then a write to the launch's first state dir, which proves the command ran.
 */
export async function homeProbe(fx: AgentFixture, r: LaunchResult): Promise<HomeProbe> {
  await fx.svc.api.updateSettings({ scriptPolicy: 'ask' }); // settings.json on disk
  const H = fx.sb.home;
  const files = ['approvals.json', 'settings.json'];
  const before = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(H, f), 'utf8')]));
  const stateProbe = path.join(r.stateDirs[0]!.dir, 'probe.txt');
  const command = [
    `H=${H}`,
    "sed -i 's/approvals/x/' $H/approvals.json",
    'truncate -s0 $H/settings.json',
    '(cd $H && echo x > approvals.json)',
    'echo x > "$(echo $H)/settings.json"',
    'rm $H/approvals.json',
    `echo ran > ${stateProbe}`,
    'true',
  ].join('; ');
  return { command, before, stateProbe };
}

/** The protected files whose bytes changed (or that are gone). */
export function changedFiles(fx: AgentFixture, probe: HomeProbe): string[] {
  return Object.entries(probe.before)
    .filter(([f, text]) => {
      const p = path.join(fx.sb.home, f);
      return !fs.existsSync(p) || fs.readFileSync(p, 'utf8') !== text;
    })
    .map(([f]) => f);
}
