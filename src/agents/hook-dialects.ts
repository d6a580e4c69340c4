// How each agent CLI's pre-tool hook talks to `skilldock policy check-write --hook`: the JSON the
// CLI writes on the hook's stdin, read into one shape (the paths a file tool would write, or the
// shell command), and the answer that denies the call with a reason the model reads. Pure, no
// imports: the hook runs before every tool call of the agent and must start fast. The facts behind
// each dialect, with the CLI version and where in its package they were read: docs/agents.md
// ("Write guard hooks").

/** The registry's `writeGuard.kind`; each names one hook protocol. */
export const GUARD_KINDS = ['claude-pretooluse', 'gemini-beforetool', 'qwen-pretooluse', 'copilot-pretooluse', 'codex-pretooluse'] as const;
export type GuardKind = (typeof GUARD_KINDS)[number];

export function isGuardKind(value: string): value is GuardKind {
  return (GUARD_KINDS as readonly string[]).includes(value);
}

/** One tool call as the write guard judges it. */
export interface GuardedCall {
  /** Paths a file tool would write (empty for a shell command or another tool); a patch may name several. */
  paths: string[];
  /** A shell command line, or null. */
  command: string | null;
  /** The agent's working folder, when the CLI sends it. */
  cwd: string | null;
}

const PATH_FIELDS = ['file_path', 'notebook_path', 'path'] as const;

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/**
 * The tool call in a hook's stdin. Claude Code (PreToolUse), Gemini CLI (BeforeTool) and Qwen Code
 * (PreToolUse) all send `{cwd, tool_name, tool_input}` with the path in `tool_input.file_path`
 * (`notebook_path` for notebooks) and the shell line in `tool_input.command`; the tool names differ
 * and are chosen by the registry's matcher, so the fields are enough here.
 */
export function readHookInput(kind: GuardKind, input: unknown): GuardedCall {
  const top = record(input);
  if (kind === 'copilot-pretooluse') return readCopilot(top);
  if (kind === 'codex-pretooluse') return readCodex(top);
  const ti = record(top.tool_input);
  const paths = PATH_FIELDS.map((f) => ti[f]).filter((p): p is string => typeof p === 'string' && p.length > 0);
  return {
    paths: paths.slice(0, 1),
    command: typeof ti.command === 'string' ? ti.command : null,
    cwd: typeof top.cwd === 'string' ? top.cwd : null,
  };
}

/**
 * GitHub Copilot CLI 1.0.102 (`preToolUse`, observed): `{sessionId, timestamp, cwd, toolName,
 * toolArgs}`, `toolArgs` an object (a JSON string in older releases). Its hooks have no matcher,
 * so the tools are picked here: `bash` (`command`), `create` and `edit` (`path`).
 */
function readCopilot(top: Record<string, unknown>): GuardedCall {
  let args: unknown = top.toolArgs;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch {
      args = null;
    }
  }
  const a = record(args);
  const cwd = typeof top.cwd === 'string' ? top.cwd : null;
  if (top.toolName === 'bash' && typeof a.command === 'string') return { paths: [], command: a.command, cwd };
  if ((top.toolName === 'create' || top.toolName === 'edit') && typeof a.path === 'string' && a.path)
    return { paths: [a.path], command: null, cwd };
  return { paths: [], command: null, cwd };
}

/**
 * Codex 0.171.0 (`PreToolUse`, observed): `{session_id, turn_id, transcript_path, cwd,
 * hook_event_name, model, permission_mode, tool_name, tool_input: {command}, tool_use_id}`. Its shell
 * tool is `Bash` (the command line); its file tool is `apply_patch`, whose `command` is the patch:
 * each file it adds, updates, deletes or moves to is a path written.
 */
function readCodex(top: Record<string, unknown>): GuardedCall {
  const text = record(top.tool_input).command;
  const cwd = typeof top.cwd === 'string' ? top.cwd : null;
  if (typeof text !== 'string') return { paths: [], command: null, cwd };
  if (top.tool_name === 'apply_patch') return { paths: patchPaths(text), command: null, cwd };
  if (top.tool_name === 'Bash') return { paths: [], command: text, cwd };
  return { paths: [], command: null, cwd };
}

const PATCH_FILE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/;

/** The files a Codex patch (`*** Begin Patch` ... `*** End Patch`) touches, in order, once each. */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const m = PATCH_FILE.exec(line);
    const p = m?.[1]!.trim();
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}

/**
 * The tools through which each hook protocol's agent loads a skill, for the usage ledger's hook
 * (`skilldock usage hook`, src/usage/hook.ts): a skill tool, a file read (of a `SKILL.md`), or,
 * for Codex, which reads skills with its shell, the shell. Copilot CLI has no matcher: a usage hook
 * would start for every tool call, so it gets none.
 */
export const USAGE_HOOKS: Record<GuardKind, { matcher: string } | null> = {
  'claude-pretooluse': { matcher: 'Skill|Read' },
  'gemini-beforetool': { matcher: '^(activate_skill|read_file)$' },
  'qwen-pretooluse': { matcher: '^(skill|read_file)$' },
  'codex-pretooluse': { matcher: '^Bash$' },
  'copilot-pretooluse': null,
};

/** What the hook prints on stdout (exit 0) to deny the call; the reason reaches the model. */
export function hookDenyAnswer(kind: GuardKind, reason: string): string {
  switch (kind) {
    case 'gemini-beforetool':
      // Gemini CLI 0.61.0: `decision` "deny" (or "block") with `reason`; the model gets
      // "Tool execution blocked: <reason>" as the function response.
      return JSON.stringify({ decision: 'deny', reason });
    case 'copilot-pretooluse':
      // Copilot CLI 1.0.102: the model gets "Denied by preToolUse hook: <reason>".
      return JSON.stringify({ permissionDecision: 'deny', permissionDecisionReason: reason });
    case 'claude-pretooluse':
    case 'qwen-pretooluse':
    case 'codex-pretooluse':
      // Claude Code; Qwen Code 0.24.4 reads the same hookSpecificOutput (and also `decision`);
      // Codex 0.171.0 too: the model gets "Command blocked by PreToolUse hook: <reason>".
      return JSON.stringify({
        hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
      });
  }
}
