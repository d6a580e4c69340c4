import { hookDenyAnswer, readHookInput, type GuardKind } from '../agents/lean.js';
import type { WriteDecision } from '../contract/index.js';
import type { CliIO } from './types.js';

// `skilldock policy check-write --hook`: one tool call of an agent, read from its pre-tool hook's
// JSON, judged by the write policy; a deny is printed in the agent's own answer format, an allowed
// call prints nothing. Shared by the `policy` command and the hook's own fast front door
// (src/cli/hook-entry.ts), which is why it needs no more of the CLI than `out`, `err` and `engine`.

type HookIO = Pick<CliIO, 'out' | 'err' | 'engine'>;

/** The service's checkWrite, run without loading the rest of the workspaces service (launch, scanner...). */
export function checkWrite(
  io: Pick<CliIO, 'engine'>,
  input: { path: string; conversationId?: string; cwd?: string },
): Promise<WriteDecision> {
  return io.engine(async (ctx) => {
    const { checkWriteIn, ConversationLog } = await import('../workspaces/lean.js');
    return checkWriteIn(ctx.paths, new ConversationLog(ctx.paths.home, ctx.events), input);
  });
}

/** Judge the hook call in `text` (the hook's stdin); the exit status. */
export async function runHook(io: HookIO, text: string, conversationId: string | undefined, kind: GuardKind): Promise<number> {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
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
    const { shellWriteTargets, homeAsTilde } = await import('./shell-targets.js');
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
