// What counts as "a skill was loaded", read from the agents' own records: the JSON a pre-tool hook
// gets on stdin (conversations SkillDock launched), and the lines of the session logs Claude Code
// and Codex keep. Pure and defensive: anything unexpected yields no event, never a throw. The
// shapes were read from transcripts the pinned CLIs wrote (e2e/agents/usage.test.ts) and are
// documented in docs/agents.md ("Usage").

export interface SkillUse {
  /** The skill's name as the agent knows it (its `name:`, or its folder for Claude Code). */
  skill: string;
  /** Epoch milliseconds. */
  t: number;
  /** The agent's id of the tool call, when it has one: the same call seen twice counts once. */
  id?: string;
}

function record(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

const SKILL_FILE = /([^\s"'`\\/]+)\/SKILL\.md\b/g;

/** The skill folders named by `.../<folder>/SKILL.md` paths in a text (a path, a shell command, a script). */
export function skillFilesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SKILL_FILE)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/** A plugin's skill is `plugin:name`; the ledger counts the skill by its own name. */
function bareName(name: string): string {
  const i = name.lastIndexOf(':');
  return (i === -1 ? name : name.slice(i + 1)).trim();
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 && v.length < 4096 ? v : null;
}

/**
 * The skills one tool call loads, by tool: a skill tool names it (Claude Code `Skill` {skill},
 * Qwen Code `skill` {skill}, Gemini CLI `activate_skill` {name}); a file read of a `SKILL.md`
 * names its folder (Claude Code `Read`, Gemini CLI and Qwen Code `read_file`); a shell command
 * that names a `SKILL.md` (Codex reads skills with its shell) names each folder.
 */
export function skillsOfToolCall(tool: string, input: Record<string, unknown>): string[] {
  switch (tool) {
    case 'Skill':
    case 'skill': {
      const s = str(input.skill) ?? str(input.name);
      return s ? [bareName(s)] : [];
    }
    case 'activate_skill': {
      const s = str(input.name) ?? str(input.skill);
      return s ? [bareName(s)] : [];
    }
    case 'Read':
    case 'read_file':
    case 'view': {
      const p = str(input.file_path) ?? str(input.absolute_path) ?? str(input.path);
      return p ? skillFilesIn(p.replace(/\\/g, '/')) : [];
    }
    case 'Bash':
    case 'shell':
    case 'exec_command':
    case 'run_shell_command':
    case 'bash': {
      const c = str(input.command) ?? str(input.cmd);
      return c ? skillFilesIn(c) : [];
    }
    default:
      return [];
  }
}

/** A pre-tool hook's stdin (every dialect in src/agents/hook-dialects.ts), as skill uses now. */
export function hookUses(input: unknown, now: number): SkillUse[] {
  const top = record(input);
  if (!top) return [];
  const tool = str(top.tool_name) ?? str(top.toolName);
  if (!tool) return [];
  let args: unknown = top.tool_input ?? top.toolArgs;
  if (typeof args === 'string') {
    try {
      args = JSON.parse(args) as unknown;
    } catch {
      args = null;
    }
  }
  const id = str(top.tool_use_id) ?? undefined;
  return skillsOfToolCall(tool, record(args) ?? {}).map((skill) => ({ skill, t: now, ...(id ? { id } : {}) }));
}

/** One session-log format: what marks a line worth parsing, what a line of it looks like, its uses. */
export interface LogFormat {
  markers: string[];
  /** Does a parsed line look like this format at all (the version check)? */
  known(line: Record<string, unknown>): boolean;
  uses(line: Record<string, unknown>): SkillUse[];
}

function time(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
}

/**
 * Claude Code (~/.claude/projects/<project>/<session>.jsonl): one JSON object a line, each with a
 * `type` and the `sessionId`; the model's turns are `type: "assistant"` with
 * `message.content[]` blocks, a tool call being `{type: "tool_use", id, name, input}`.
 */
export const CLAUDE_LOG: LogFormat = {
  markers: ['"name":"Skill"', 'SKILL.md'],
  known: (l) => typeof l.type === 'string' && (typeof l.sessionId === 'string' || typeof l.uuid === 'string' || l.type === 'summary'),
  uses(l) {
    if (l.type !== 'assistant') return [];
    const t = time(l.timestamp);
    const content = record(l.message)?.content;
    if (t === null || !Array.isArray(content)) return [];
    const out: SkillUse[] = [];
    for (const b of content) {
      const block = record(b);
      if (block?.type !== 'tool_use' || typeof block.name !== 'string') continue;
      const id = str(block.id) ?? undefined;
      for (const skill of skillsOfToolCall(block.name, record(block.input) ?? {})) out.push({ skill, t, ...(id ? { id } : {}) });
    }
    return out;
  },
};

/**
 * Codex (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): `{timestamp, type, payload}` a line; the
 * model's tool calls are `type: "response_item"` with a payload of `function_call` (JSON
 * `arguments`), `custom_tool_call` (`input`: the code-mode script) or `local_shell_call`
 * (`action.command`). Codex loads a skill by reading its `SKILL.md` with the shell.
 */
export const CODEX_LOG: LogFormat = {
  markers: ['SKILL.md'],
  known: (l) => typeof l.type === 'string' && typeof l.timestamp === 'string' && record(l.payload) !== null,
  uses(l) {
    if (l.type !== 'response_item') return [];
    const t = time(l.timestamp);
    const p = record(l.payload);
    if (t === null || !p) return [];
    let text: string | null = null;
    if (p.type === 'function_call') text = str(p.arguments);
    else if (p.type === 'custom_tool_call') text = typeof p.input === 'string' ? p.input : null;
    else if (p.type === 'local_shell_call') {
      const cmd = record(p.action)?.command;
      text = Array.isArray(cmd) ? cmd.filter((c) => typeof c === 'string').join(' ') : null;
    }
    if (!text) return [];
    const id = str(p.call_id) ?? undefined;
    return skillFilesIn(text.replace(/\\\\/g, '/')).map((skill) => ({ skill, t, ...(id ? { id } : {}) }));
  },
};
