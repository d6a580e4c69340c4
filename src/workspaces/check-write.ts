import path from 'node:path';
import type { Conversation, WriteDecision } from '../contract/index.js';
import type { EnginePaths } from '../context.js';
import { fail } from '../errors.js';
import { isInside } from '../base/extpath.js';
import { stateRoot } from '../state/state-dirs.js';
import { checkWrite, defaultTempDirs, type PolicyScope } from '../state/write-policy.js';
import { fullConversation, isValidConversationId, type ConversationLog } from './conversations.js';

// Where an agent may write, for the service's `checkWrite` and for `skilldock policy check-write
// --hook` (which runs before every file write of an agent and so starts without the rest of the
// workspaces service: launch, assistants, the security scanner).

export function conversationById(log: ConversationLog, id: string): Conversation {
  const c = isValidConversationId(id) ? log.list().find((x) => x.id === id) : undefined;
  if (!c) throw fail('not-found', 'launch.unknown-conversation', { id });
  return fullConversation(c);
}

/** The newest live conversation whose workspace holds `cwd`. */
function conversationAt(log: ConversationLog, cwd: string): Conversation | undefined {
  const abs = path.resolve(cwd);
  const hit = log
    .list()
    .filter((c) => !c.removedAt && isInside(abs, c.workspace))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  return hit ? fullConversation(hit) : undefined;
}

export function checkWriteIn(
  paths: EnginePaths,
  log: ConversationLog,
  input: { path: string; conversationId?: string; cwd?: string },
): WriteDecision {
  const conv = input.conversationId ? conversationById(log, input.conversationId) : conversationAt(log, input.cwd ?? process.cwd());
  const scope: PolicyScope = conv
    ? {
        workspace: conv.workspace,
        stateDirs: conv.stateDirs,
        skillDirs: conv.skills.map((s) => ({ name: s.name, dir: s.dir })),
        legacy: conv.legacy,
        guardFiles: conv.guardFiles,
        tempDirs: defaultTempDirs(),
        userHome: paths.userHome,
        skilldockHome: paths.home,
      }
    : {
        // No conversation: the cwd stands in for the workspace and every state dir is fine.
        workspace: path.resolve(input.cwd ?? process.cwd()),
        stateDirs: [{ skill: '*', id: '*', dir: stateRoot(paths.home), uri: 'skill://state/' }],
        skillDirs: [],
        legacy: [],
        guardFiles: [],
        tempDirs: defaultTempDirs(),
        userHome: paths.userHome,
        skilldockHome: paths.home,
      };
  return { ...checkWrite(scope, input.path, input.cwd), conversationId: conv?.id ?? null };
}
