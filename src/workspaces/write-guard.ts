import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDef } from '../agents/registry.js';
import type { GuardHookGroup } from './script-policy.js';
import { USAGE_HOOKS, type GuardKind } from '../agents/hook-dialects.js';

// The write guard for agents with a pre-tool hook (registry `writeGuard`). The agent runs the
// hook's command before a file write or shell command with the tool call as JSON on stdin (Claude
// Code and Qwen Code: PreToolUse; Gemini CLI: BeforeTool); our command is
// `skilldock policy check-write --hook`, which answers with a deny decision and the suggested
// redirect as its reason in the agent's own format, so the agent corrects the path itself.

export interface CliInvocation {
  /** Program that runs the CLI script (node, or the desktop app's own executable). */
  node: string;
  /** The CLI script, or the desktop app's CLI flag. */
  script: string;
  /** Arguments the program takes before `script`. */
  leading?: string[];
  /** Env the program needs. */
  env: Record<string, string>;
}

/** The desktop app's executable runs the CLI instead of opening a window when given this flag (main/cli-mode.ts). */
export const APP_CLI_FLAG = '--cli';
/** Set by the packaged desktop app to its own executable (its fuses forbid running Electron as Node). */
export const APP_EXECUTABLE_ENV = 'SKILLDOCK_APP_EXECUTABLE';

/** How to call this very build of the skilldock CLI, or null when its script is not on disk. */
export function findCli(resourcesDir: string, env: NodeJS.ProcessEnv = process.env): CliInvocation | null {
  const app = env[APP_EXECUTABLE_ENV];
  if (app && !env.SKILLDOCK_CLI_SCRIPT) {
    // No display is needed to answer a hook: start Chromium headless.
    return { node: app, leading: ['--ozone-platform=headless'], script: APP_CLI_FLAG, env: {} };
  }
  const candidates = env.SKILLDOCK_CLI_SCRIPT
    ? [path.resolve(env.SKILLDOCK_CLI_SCRIPT)]
    : [path.join(path.dirname(resourcesDir), 'bin', 'skilldock.js'), ...binNearThisModule()];
  const script = candidates.find((c) => fs.existsSync(c));
  if (!script) return null;
  const electron = Boolean(process.versions.electron);
  // An unpackaged Electron (development) may still run as Node.
  return { node: process.execPath, script, env: electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

/** `bin/skilldock.js` of the checkout or package this code runs from (source, bundle). */
function binNearThisModule(): string[] {
  let dir: string;
  try {
    dir = path.dirname(fileURLToPath(import.meta.url));
  } catch {
    return []; // a CommonJS bundle has no import.meta.url
  }
  const out: string[] = [];
  for (let i = 0; i < 4; i++) {
    out.push(path.join(dir, 'bin', 'skilldock.js'));
    dir = path.dirname(dir);
  }
  return out;
}

/** POSIX single-quote a word for the shell that runs hook commands. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function guardCommand(
  cli: CliInvocation,
  opts: { home: string; userHome: string; conversationId: string; kind?: GuardKind },
): string {
  return cliCommand(cli, opts, [
    'policy',
    'check-write',
    '--hook',
    '--conversation',
    shellQuote(opts.conversationId),
    // Claude Code's format is the default; other agents name theirs.
    ...(opts.kind && opts.kind !== 'claude-pretooluse' ? ['--format', opts.kind] : []),
  ]);
}

/** A hook's command line: SkillDock's CLI on this home, its arguments already quoted. */
function cliCommand(cli: CliInvocation, opts: { home: string; userHome: string }, args: string[]): string {
  const env = { ...cli.env, SKILLDOCK_HOME: opts.home, SKILLDOCK_USER_HOME: opts.userHome };
  return [
    ...Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`),
    shellQuote(cli.node),
    ...(cli.leading ?? []).map(shellQuote),
    shellQuote(cli.script),
    ...args,
  ].join(' ');
}

type Guard = NonNullable<AgentDef['writeGuard']>;

/**
 * The settings the agent reads its hooks from, holding the guard's hook groups (given in Claude
 * Code's shape, timeouts in seconds; `guardGroups`). Claude Code and Qwen Code: `hooks.PreToolUse`, timeout
 * in seconds; Gemini CLI: `hooks.BeforeTool`, timeout in milliseconds, a regex matcher.
 */
export function guardSettings(guard: Guard, groups: GuardHookGroup[]): object {
  if (guard.kind === 'copilot-pretooluse') {
    // Copilot CLI: a hooks file (`.github/hooks/*.json`), no matcher (each command picks its tools),
    // the shell command under `bash`, timeout in seconds.
    return {
      version: 1,
      hooks: { preToolUse: groups.flatMap((g) => g.hooks.map((h) => ({ type: h.type, bash: h.command, timeoutSec: h.timeout }))) },
    };
  }
  if (guard.kind === 'gemini-beforetool') {
    return {
      hooks: {
        BeforeTool: groups.map((g) => ({
          matcher: g.matcher,
          hooks: g.hooks.map((h) => ({ name: 'skilldock-guard', type: h.type, command: h.command, timeout: h.timeout * 1000 })),
        })),
      },
    };
  }
  return { hooks: { PreToolUse: groups } };
}

/** A TOML basic string: JSON's escapes, plus DEL, which TOML does not allow raw. */
function tomlString(text: string): string {
  return JSON.stringify(text).replace(/\u007f/g, '\\u007F');
}

/** JSON with every object's keys sorted, no spaces (how Codex fingerprints a value). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Where Codex files hooks given with `-c`: its session-flags config layer. */
const CODEX_FLAGS_SOURCE = '/<session-flags>/config.toml';

/**
 * Codex: the hook as `-c` arguments for this run only, and Codex's trust in exactly that hook.
 * Codex 0.171.0 runs a non-managed hook only when its trust state holds the hook's hash, and reads
 * that state from the user's config and from `-c` overrides alike (codex-rs/hooks config_rules.rs),
 * so the trust goes on the command line too and nothing is written to ~/.codex. A hook's key is
 * `<source>:pre_tool_use:<group>:<handler>`; its hash is `sha256:` + the SHA-256 of the canonical
 * JSON of `{event_name, matcher, hooks: [the one handler, timeout set, async false]}`, checked
 * against `codex app-server`'s `hooks/list` (docs/agents.md).
 */
export function codexHookArgs(flag: string, groups: GuardHookGroup[]): string[] {
  const trust: string[] = [];
  const toml = groups.map((g, gi) => {
    const hooks = g.hooks.map((h, hi) => {
      const identity = {
        event_name: 'pre_tool_use',
        matcher: g.matcher,
        hooks: [{ type: h.type, command: h.command, timeout: h.timeout, async: false }],
      };
      const hash = `sha256:${createHash('sha256').update(canonicalJson(identity)).digest('hex')}`;
      trust.push(`${tomlString(`${CODEX_FLAGS_SOURCE}:pre_tool_use:${gi}:${hi}`)}={trusted_hash=${tomlString(hash)}}`);
      return `{type=${tomlString(h.type)},command=${tomlString(h.command)},timeout=${h.timeout}}`;
    });
    return `{matcher=${tomlString(g.matcher)},hooks=[${hooks.join(',')}]}`;
  });
  return [flag, `hooks.PreToolUse=[${toml.join(',')}]`, flag, `hooks.state={${trust.join(',')}}`];
}

/**
 * The usage ledger's hook (`skilldock usage hook`): it records a skill being loaded and never
 * answers, so the call goes on as if it were not there. Null for a protocol without one.
 */
export function usageGroup(
  guard: Guard,
  cli: CliInvocation,
  opts: { home: string; userHome: string; agent?: string },
): GuardHookGroup | null {
  const usage = USAGE_HOOKS[guard.kind];
  if (!usage || !opts.agent) return null;
  const command = cliCommand(cli, opts, ['usage', 'hook', '--agent', shellQuote(opts.agent)]);
  return { matcher: usage.matcher, hooks: [{ type: 'command', command, timeout: 10 }] };
}

/** The guard's hook groups (the write guard first, then `extraGroups`, then the usage hook), in Claude Code's shape. */
export function guardGroups(
  guard: Guard,
  cli: CliInvocation,
  opts: { home: string; userHome: string; conversationId: string; agent?: string },
  extraGroups: GuardHookGroup[] = [],
): GuardHookGroup[] {
  const command = guardCommand(cli, { ...opts, kind: guard.kind });
  const usage = usageGroup(guard, cli, opts);
  return [{ matcher: guard.matcher, hooks: [{ type: 'command', command, timeout: 30 }] }, ...extraGroups, ...(usage ? [usage] : [])];
}

/** Write the agent's settings file holding the hook to `file`; returns `file`. */
export function writeGuardSettings(
  file: string,
  guard: Guard,
  cli: CliInvocation,
  opts: { home: string; userHome: string; conversationId: string; agent?: string },
  extraGroups: GuardHookGroup[] = [],
  /** The caller just made the file's folder. */
  dirReady = false,
  /** More top-level settings (the agent's sandbox). */
  more: Record<string, unknown> = {},
): string {
  const settings = { ...guardSettings(guard, guardGroups(guard, cli, opts, extraGroups)), ...more };
  if (!dirReady) fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
  return file;
}
