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

export function guardCommand(cli: CliInvocation, opts: { home: string; userHome: string; conversationId: string }): string {
  const env = { ...cli.env, SKILLDOCK_HOME: opts.home, SKILLDOCK_USER_HOME: opts.userHome };
  const words = [
    ...Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`),
    shellQuote(cli.node),
    ...(cli.leading ?? []).map(shellQuote),
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
