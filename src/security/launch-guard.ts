import { hookDenyAnswer, isGuardKind, type GuardKind } from '../agents/hook-dialects.js';
import type { ApprovalStatus, Inventory, ScriptPolicy } from '../contract/index.js';

// What a launch may let each skill run, and how it tells the agent: a note for the context file
// (every agent) and, for agents whose hook protocol allows it, a PreToolUse check on the shell tool
// that refuses commands touching an unapproved skill's folder.

/** What to do at launch with a skill whose scripts are not approved under "ask". */
export type OnUnapproved = 'refuse' | 'skip' | 'omit';

export interface LaunchSkillDecision {
  name: string;
  dir: string;
  status: ApprovalStatus;
  /**
   * - `link`: linked, scripts may run;
   * - `link-no-scripts`: linked for its instructions, scripts denied (context note + hook);
   * - `omit`: not linked at all;
   * - `refuse`: the launch must not go ahead.
   */
  action: 'link' | 'link-no-scripts' | 'omit' | 'refuse';
  scriptsAllowed: boolean;
  /** Why its scripts may not run (for the user and the context file). */
  reason?: string;
  digest: string;
  approvedDigest: string | null;
  /** `link-no-scripts`: the executable surface files, left out of the folder the agent is given. */
  blocked?: string[];
}

export interface LaunchDecision {
  policy: ScriptPolicy;
  skills: LaunchSkillDecision[];
  /** Skills that stop the launch (only with `refuse`). */
  refused: LaunchSkillDecision[];
  /** Context-file section for the skills whose scripts are denied ('' when none). */
  contextNote: string;
  /** Deny patterns per skill, for the shell hook (`claudeBashHook`). */
  denied: DeniedSkill[];
}

export interface DeniedSkill {
  name: string;
  reason: string;
  /** Substrings that mark a shell command as touching the skill's scripts. */
  patterns: string[];
}

export function decide(
  policy: ScriptPolicy,
  status: ApprovalStatus,
  onUnapproved: OnUnapproved,
): { action: LaunchSkillDecision['action']; scriptsAllowed: boolean; reason?: string } {
  if (status === 'no-surface' || policy === 'allowed' || (policy === 'ask' && status === 'approved')) {
    return { action: 'link', scriptsAllowed: true };
  }
  if (policy === 'never') {
    return { action: 'link-no-scripts', scriptsAllowed: false, reason: 'the script policy is "never": skill scripts do not run' };
  }
  const reason =
    status === 'changed'
      ? 'its scripts changed since the user approved them; they must be approved again in SkillDock'
      : 'its scripts have not been approved by the user in SkillDock';
  if (onUnapproved === 'refuse') return { action: 'refuse', scriptsAllowed: false, reason };
  if (onUnapproved === 'omit') return { action: 'omit', scriptsAllowed: false, reason };
  return { action: 'link-no-scripts', scriptsAllowed: false, reason };
}

/**
 * Substrings of a shell command that reach a skill's scripts: its folder wherever the agent may
 * see it (the link under the agent's skills dir, the real folder) and each surface file under the
 * skill's name. A pattern match, not a sandbox: it stops the agent following the skill's
 * instructions, not a determined attacker.
 */
export function denyPatterns(name: string, realDir: string, inv: Inventory): string[] {
  const set = new Set<string>();
  const add = (p: string) => {
    set.add(p);
    const escaped = JSON.stringify(p).slice(1, -1); // how the path looks inside the hook's JSON input
    if (escaped !== p) set.add(escaped);
  };
  add(`skills/${name}`);
  add(realDir.replace(/[\\/]+$/, ''));
  for (const f of inv.files) add(`${name}/${f.path}`);
  return [...set].sort();
}

/** Context-file text telling the agent which skills' scripts it must not run. */
export function contextNote(skills: Array<{ name: string; reason?: string; action: LaunchSkillDecision['action'] }>): string {
  const denied = skills.filter((s) => s.action === 'link-no-scripts');
  if (!denied.length) return '';
  const lines = [
    '## Skill scripts that are not approved',
    '',
    'The user has not approved the scripts of the skills below. Use their instructions and reference files,',
    'but do not run their scripts (files in the skill folder) or the shell commands they tell you to run;',
    'if a task needs them, tell the user to review and approve the skill in SkillDock first.',
    '',
    ...denied.map((s) => `- \`${s.name}\`: ${s.reason ?? 'not approved'}.`),
    '',
  ];
  return lines.join('\n');
}

function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell command of a pre-tool hook on the agent's shell tool. It reads the tool call (JSON on
 * stdin) and denies it when the command names a denied skill. Plain POSIX sh, so it needs neither
 * Node nor jq; failing to read stdin denies too, so the guard fails closed. It denies the way the
 * write guard does (`hookDenyAnswer`: the agent's JSON decision on stdout, exit 0), so the model is
 * told the reason alone: with exit 2 and the reason on stderr, Claude Code put this very script in
 * front of it (`PreToolUse:Bash hook error: [input=$(cat) || ...]: <reason>`).
 *
 * Text matching is a second line only: a glob, a variable or `find -exec` names no skill folder.
 * What holds against those is that the workspace has no script to reach (materialize.ts) and,
 * where the agent has a sandbox, that the library folder is out of its shell's reach.
 */
export function bashGuardCommand(denied: DeniedSkill[], kind: GuardKind = 'claude-pretooluse'): string {
  const refuse = (msg: string) => `printf '%s\\n' ${shQuote(hookDenyAnswer(kind, msg))}; exit 0;`;
  const arms = denied
    .filter((d) => d.patterns.length)
    .map((d) => {
      // each literal either ends the input or is followed by a character no name continues with
      const pats = d.patterns.map((p) => `*${shQuote(p)}|*${shQuote(p)}[!A-Za-z0-9._-]*`).join('|');
      const msg = `SkillDock: the scripts of skill "${d.name}" are not approved (${d.reason}). Do not run them or copy them elsewhere to run; read the skill's instructions if you need them, and ask the user to approve the skill in SkillDock.`;
      return `${pats}) ${refuse(msg)};`;
    });
  if (!arms.length) return 'exit 0';
  const read = `input=$(cat) || { ${refuse('SkillDock: the tool call could not be read, so it was not allowed.')} }`;
  // Copilot CLI 1.0.102 sends `{"toolName":"bash","toolArgs":{…}}` for every tool: only its shell
  // tools (`bash`, and `write_bash`, which types into a running shell) are judged.
  const tools =
    kind === 'copilot-pretooluse'
      ? ` case "$input" in *'"toolName":"bash"'*|*'"toolName": "bash"'*|*'"toolName":"write_bash"'*|*'"toolName": "write_bash"'*) ;; *) exit 0;; esac;`
      : '';
  return `${read};${tools} case "$input" in ${arms.join(' ')} esac; exit 0`;
}

/** The matcher over each hook protocol's shell tool names (keyed by the registry's guard kind). */
export const SHELL_HOOKS: Record<GuardKind, { matcher: string }> = {
  'claude-pretooluse': { matcher: 'Bash' },
  'gemini-beforetool': { matcher: '^run_shell_command$' },
  'qwen-pretooluse': { matcher: '^run_shell_command$' },
  'codex-pretooluse': { matcher: '^Bash$' },
  // Copilot CLI 1.0.102 ignores matchers; the command picks the tools.
  'copilot-pretooluse': { matcher: '^(bash|write_bash)$' },
};

/** The shell hook group to merge into the agent's guard settings (Claude Code's shape; write-guard converts it). */
export function claudeBashHook(
  denied: DeniedSkill[],
  kind = 'claude-pretooluse',
): { matcher: string; hooks: Array<{ type: 'command'; command: string; timeout: number }> } | null {
  if (!isGuardKind(kind) || !denied.some((d) => d.patterns.length)) return null;
  return { matcher: SHELL_HOOKS[kind].matcher, hooks: [{ type: 'command', command: bashGuardCommand(denied, kind), timeout: 10 }] };
}
