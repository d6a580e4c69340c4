import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentDef } from '../agents/registry.js';
import type { GuardHookGroup } from './script-policy.js';

// The write guard for agents with a pre-write hook (registry `writeGuard`). Claude Code runs the
// command of a PreToolUse hook before Write/Edit with the tool call as JSON on stdin; our command is
// `skilldock policy check-write --hook`, which answers with a deny decision and the suggested
// redirect as its reason, so the agent corrects the path itself.

export interface CliInvocation {
  /** Program that runs the CLI script (node, or Electron in node mode). */
  node: string;
  script: string;
  /** Env the program needs (ELECTRON_RUN_AS_NODE for Electron). */
  env: Record<string, string>;
}

/** How to call this very build of the skilldock CLI, or null when its script is not on disk. */
export function findCli(resourcesDir: string, env: NodeJS.ProcessEnv = process.env): CliInvocation | null {
  const candidates = env.SKILLDOCK_CLI_SCRIPT
    ? [path.resolve(env.SKILLDOCK_CLI_SCRIPT)]
    : [path.join(path.dirname(resourcesDir), 'bin', 'skilldock.js'), ...binNearThisModule()];
  const script = candidates.find((c) => fs.existsSync(c));
  if (!script) return null;
  const electron = Boolean(process.versions.electron);
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

export function guardCommand(cli: CliInvocation, opts: { home: string; userHome: string; conversationId: string }): string {
  const env = { ...cli.env, SKILLDOCK_HOME: opts.home, SKILLDOCK_USER_HOME: opts.userHome };
  const words = [
    ...Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`),
    shellQuote(cli.node),
    shellQuote(cli.script),
    'policy',
    'check-write',
    '--hook',
    '--conversation',
    shellQuote(opts.conversationId),
  ];
  return words.join(' ');
}

/** Write the agent's settings file holding the hook to `file`; returns `file`. */
export function writeClaudeGuard(
  file: string,
  guard: NonNullable<AgentDef['writeGuard']>,
  cli: CliInvocation,
  opts: { home: string; userHome: string; conversationId: string },
  extraGroups: GuardHookGroup[] = [],
  /** The caller just made the file's folder. */
  dirReady = false,
): string {
  const settings = {
    hooks: {
      PreToolUse: [
        {
          matcher: guard.matcher,
          hooks: [{ type: 'command', command: guardCommand(cli, opts), timeout: 30 }],
        },
        ...extraGroups,
      ],
    },
  };
  if (!dirReady) fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
  return file;
}

/** The answer a PreToolUse hook prints to deny a tool call (Claude Code hook output format). */
export function hookDenyOutput(reason: string): string {
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason },
  });
}
