import fs from 'node:fs';
import path from 'node:path';
import type { ConversationIndex as Conversation } from '../contract/index.js';
import { pidAlive } from '../store/file-lock.js';
import { isInside } from '../base/extpath.js';

// "In use" for cleanup: the agent SkillDock started for the conversation still runs (its pid is in
// `<dataDir>/agent.pid`, written by `launch --exec` and by the terminal launcher script, which
// `exec`s the agent so the pid stays the agent's), or, where /proc exists, any process has its
// working directory inside the workspace (an agent started by hand, a shell left open there).

export function pidFile(conv: Pick<Conversation, 'dataDir'>): string {
  return path.join(conv.dataDir, 'agent.pid');
}

export function writePid(conv: Pick<Conversation, 'dataDir'>, pid: number): void {
  fs.mkdirSync(conv.dataDir, { recursive: true });
  fs.writeFileSync(pidFile(conv), `${pid}\n`);
}

/** Called when the agent exits: keeps the file (its mtime is the last use) with the pid cleared. */
export function markExited(conv: Pick<Conversation, 'dataDir'>): void {
  try {
    fs.writeFileSync(pidFile(conv), '');
  } catch {
    // the conversation may have been cleaned meanwhile
  }
}

export function lastUsed(conv: Conversation): Date {
  const created = new Date(conv.createdAt);
  try {
    const m = fs.statSync(pidFile(conv)).mtime;
    return m > created ? m : created;
  } catch {
    return created;
  }
}

/** Pids whose cwd lies inside any of `dirs` (Linux /proc; empty elsewhere). Read once per call. */
export function processesWithCwdIn(dirs: string[]): Map<string, number> {
  const found = new Map<string, number>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return found;
  }
  const real = dirs.map((d) => {
    try {
      return [d, fs.realpathSync(d)] as const;
    } catch {
      return [d, d] as const;
    }
  });
  for (const name of entries) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    let cwd: string;
    try {
      cwd = fs.readlinkSync(`/proc/${name}/cwd`);
    } catch {
      continue;
    }
    for (const [dir, r] of real) {
      if (!found.has(dir) && isInside(cwd, r)) found.set(dir, Number(name));
    }
  }
  return found;
}

export function inUse(conv: Conversation, cwdScan: Map<string, number>): string | null {
  try {
    const pid = Number(fs.readFileSync(pidFile(conv), 'utf8').trim());
    if (pid && pidAlive(pid)) return `agent pid ${pid} is running`;
  } catch {
    // no pid file: never executed through SkillDock
  }
  const p = cwdScan.get(conv.workspace);
  if (p) return `process ${p} has its working directory inside`;
  return null;
}
