import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import { hookDenyAnswer, isGuardKind, readHookInput, GUARD_KINDS, type GuardKind } from '../../agents/lean.js';
import type { WriteDecision } from '../../contract/index.js';
import { UsageError, type CliCommand, type CliIO } from '../types.js';

const USAGE = `skilldock policy check-write <path> [--conversation ID] [--json]
skilldock policy check-write --hook [--conversation ID] [--format KIND]

Allowed: inside the conversation's workspace, a state dir of its skills, or the temp dir.
Denied: anything else; a skill folder (read-only); a legacy home path a skill mentions, with the
state-dir path to use instead. Exit 0 allowed, 1 denied.
--hook reads an agent's pre-tool hook call as JSON on stdin (the file path a tool would write, or a
shell command) and prints a deny decision with the suggested path as its reason; it prints nothing
when the write is allowed. --format names the agent's hook protocol (default claude-pretooluse):
${GUARD_KINDS.join(', ')}.`;

/** The service's checkWrite, run without loading the rest of the workspaces service (launch, scanner...). */
function checkWrite(io: CliIO, input: { path: string; conversationId?: string; cwd?: string }): Promise<WriteDecision> {
  return io.engine(async (ctx) => {
    const { checkWriteIn, ConversationLog } = await import('../../workspaces/lean.js');
    return checkWriteIn(ctx.paths, new ConversationLog(ctx.paths.home, ctx.events), input);
  });
}

async function runHook(io: CliIO, conversationId: string | undefined, kind: GuardKind): Promise<number> {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(0, 'utf8')) as unknown;
  } catch (err) {
    io.err(`skilldock policy: hook input is not JSON: ${(err as Error).message}`);
    return 1;
  }
  const call = readHookInput(kind, raw);
  const check = (p: string) =>
    checkWrite(io, {
      path: p,
      ...(conversationId ? { conversationId } : {}),
      ...(call.cwd !== null ? { cwd: call.cwd } : {}),
    });
  const deny = (d: { reason: string; redirect?: string }) =>
    io.out(hookDenyAnswer(kind, d.redirect ? `${d.reason} Suggested path: ${d.redirect}` : d.reason));
  if (call.paths.length) {
    // A file tool (a patch may write several files): the first path denied answers for the call.
    for (const target of call.paths) {
      const d = await check(target);
      if (!d.allowed) {
        deny(d);
        return 0;
      }
    }
    return 0;
  }
  if (call.command !== null) {
    // A shell command (Bash tool): the paths it would create or write. Only a skill's legacy state
    // path and SkillDock's protected files are denied here; a shell may write elsewhere (caches,
    // builds) and the file tools' stricter rule does not fit it.
    const { shellWriteTargets, homeAsTilde } = await import('../shell-targets.js');
    for (const t of shellWriteTargets(call.command)) {
      const d = await check(homeAsTilde(t)); // the engine expands `~` against the user's home
      if (!d.allowed && (d.rule === 'legacy-path' || d.rule === 'protected' || d.rule === 'guard-file' || d.rule === 'skill-folder')) {
        deny(d);
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
      options: { conversation: { type: 'string' }, json: { type: 'boolean' }, hook: { type: 'boolean' }, format: { type: 'string' } },
    });
    if (values.format !== undefined && !values.hook) throw new UsageError('--format goes with --hook');
    if (values.hook) {
      if (positionals.length) throw new UsageError('--hook reads the path from stdin; give no path');
      const kind = values.format ?? 'claude-pretooluse';
      if (!isGuardKind(kind)) throw new UsageError(`unknown --format "${kind}" (one of ${GUARD_KINDS.join(', ')})`);
      return runHook(io, values.conversation, kind);
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
