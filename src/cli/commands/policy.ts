import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import type { WriteDecision } from '../../contract/index.js';
import { UsageError, type CliCommand, type CliIO } from '../types.js';

const USAGE = `skilldock policy check-write <path> [--conversation ID] [--json]
skilldock policy check-write --hook [--conversation ID]

Allowed: inside the conversation's workspace, a state dir of its skills, or the temp dir.
Denied: anything else; a skill folder (read-only); a legacy home path a skill mentions, with the
state-dir path to use instead. Exit 0 allowed, 1 denied.
--hook reads a Claude Code PreToolUse call as JSON on stdin (tool_input.file_path) and prints a
deny decision with the suggested path as its reason; it prints nothing when the write is allowed.`;

interface HookInput {
  cwd?: unknown;
  tool_input?: { file_path?: unknown; notebook_path?: unknown; path?: unknown; command?: unknown };
}

/** The service's checkWrite, run without loading the rest of the workspaces service (launch, scanner...). */
function checkWrite(io: CliIO, input: { path: string; conversationId?: string; cwd?: string }): Promise<WriteDecision> {
  return io.engine(async (ctx) => {
    const { checkWriteIn, ConversationLog } = await import('../../workspaces/lean.js');
    return checkWriteIn(ctx.paths, new ConversationLog(ctx.paths.home, ctx.events), input);
  });
}

async function runHook(io: CliIO, conversationId: string | undefined): Promise<number> {
  let input: HookInput;
  try {
    input = JSON.parse(fs.readFileSync(0, 'utf8')) as HookInput;
  } catch (err) {
    io.err(`skilldock policy: hook input is not JSON: ${(err as Error).message}`);
    return 1;
  }
  const ti = input.tool_input ?? {};
  const check = (p: string) =>
    checkWrite(io, {
      path: p,
      ...(conversationId ? { conversationId } : {}),
      ...(typeof input.cwd === 'string' ? { cwd: input.cwd } : {}),
    });
  const deny = async (d: { reason: string; redirect?: string }) =>
    io.out((await import('../../workspaces/lean.js')).hookDenyOutput(d.redirect ? `${d.reason} Suggested path: ${d.redirect}` : d.reason));
  const target = [ti.file_path, ti.notebook_path, ti.path].find((p): p is string => typeof p === 'string' && p.length > 0);
  if (target) {
    const d = await check(target);
    if (!d.allowed) await deny(d);
    return 0;
  }
  if (typeof ti.command === 'string') {
    // A shell command (Bash tool): the paths it would create or write. Only a skill's legacy state
    // path and SkillDock's protected files are denied here; a shell may write elsewhere (caches,
    // builds) and the file tools' stricter rule does not fit it.
    const { shellWriteTargets, homeAsTilde } = await import('../shell-targets.js');
    for (const t of shellWriteTargets(ti.command)) {
      const d = await check(homeAsTilde(t)); // the engine expands `~` against the user's home
      if (!d.allowed && (d.rule === 'legacy-path' || d.rule === 'protected' || d.rule === 'guard-file' || d.rule === 'skill-folder')) {
        await deny(d);
        return 0;
      }
    }
  }
  return 0;
}

export const policyCommand: CliCommand = {
  name: 'policy',
  summary: 'Check where an agent may write during a conversation',
  usage: USAGE,
  lean: true,
  async run(argv, io) {
    const [action, ...rest] = argv;
    if (action !== 'check-write') throw new UsageError(action ? `unknown action "${action}"` : 'expected an action: check-write');
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { conversation: { type: 'string' }, json: { type: 'boolean' }, hook: { type: 'boolean' } },
    });
    if (values.hook) {
      if (positionals.length) throw new UsageError('--hook reads the path from stdin; give no path');
      return runHook(io, values.conversation);
    }
    if (positionals.length !== 1) throw new UsageError('expected exactly one path');
    const d = await checkWrite(io, {
      path: positionals[0]!,
      cwd: io.cwd,
      ...(values.conversation ? { conversationId: values.conversation } : {}),
    });
    if (values.json) printJson(io, d);
    else {
      const c = io.color;
      io.out(`${d.allowed ? paint(c, 'green', 'allowed') : paint(c, 'red', 'denied')}  ${d.path}  ${paint(c, 'dim', `(${d.rule})`)}`);
      io.out(`  ${d.reason}`);
      if (d.redirect) io.out(`  suggested: ${d.redirect}`);
    }
    return d.allowed ? 0 : 1;
  },
};
