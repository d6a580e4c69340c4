import fs from 'node:fs';
import path from 'node:path';
import type { SkillUse } from './parsers.js';

// The ledger's inbox: the one part the hook's fast door (src/cli/hook-entry.ts) loads, so it
// imports nothing but Node. src/usage/ledger.ts folds it into the ledger under its lock.

export type Via = 'hook' | 'log';

export function usageDir(home: string): string {
  return path.join(home, 'usage');
}

/** A hook's record of uses: one line each, appended; never throws (a hook must not fail the agent's call). */
export function appendInbox(home: string, agent: string, uses: SkillUse[], via: Via = 'hook'): void {
  if (!uses.length) return;
  try {
    const dir = usageDir(home);
    fs.mkdirSync(dir, { recursive: true });
    const text = uses.map((u) => `${JSON.stringify({ ...u, agent, via })}\n`).join('');
    fs.appendFileSync(path.join(dir, 'inbox.jsonl'), text, { mode: 0o600 });
  } catch {
    // the ledger is a record, not a guard: losing one line is better than failing the agent
  }
}
