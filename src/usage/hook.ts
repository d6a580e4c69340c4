import { appendInbox } from './inbox.js';
import { hookUses } from './parsers.js';

// `skilldock usage hook --agent ID`: the pre-tool hook a launched conversation runs when its agent
// loads a skill (a skill tool, a read of a SKILL.md, Codex's shell: src/agents/hook-dialects.ts
// USAGE_HOOKS). It appends the use to the ledger's inbox and answers nothing, so the agent goes on
// as if no hook were there; bad input records nothing and still exits 0.

export function recordHook(home: string, agent: string, stdin: string, now = Date.now()): number {
  let input: unknown;
  try {
    input = JSON.parse(stdin) as unknown;
  } catch {
    return 0;
  }
  const uses = hookUses(input, now);
  appendInbox(home, agent, uses, 'hook');
  return uses.length;
}
