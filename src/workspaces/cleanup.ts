import fs from 'node:fs';
import path from 'node:path';
import type { CleanResult, ConversationIndex, WorkspaceInfo } from '../contract/index.js';
import { conversationDataDir, workspacesRoot, type ConversationLog } from './conversations.js';
import { inUse, lastUsed, processesWithCwdIn } from './in-use.js';
import { removeTreeNoFollow } from './links.js';

// Cleanup removes only what SkillDock created and recorded: a temporary workspace whose recorded
// path is exactly `<home>/workspaces/<conversation id>` and a real dir, and the conversation's own
// data dir. A user's project is never touched (only the skills view kept for it under <home>).
// Removal never follows links, so the skill folders behind them stay intact.

export function describe(convs: ConversationIndex[], now = Date.now()): WorkspaceInfo[] {
  const scan = processesWithCwdIn(convs.filter((c) => c.temporary && !c.removedAt).map((c) => c.workspace));
  return convs.map((c) => {
    const used = lastUsed(c);
    const why = c.removedAt ? null : inUse(c, c.temporary ? scan : new Map<string, number>());
    return {
      conversationId: c.id,
      assistantName: c.assistantName,
      agent: c.agent,
      workspace: c.workspace,
      temporary: c.temporary,
      mode: c.mode,
      createdAt: c.createdAt,
      lastUsedAt: used.toISOString(),
      ageMs: Math.max(0, now - used.getTime()),
      exists: fs.existsSync(c.workspace),
      inUse: why !== null,
      ...(why ? { inUseReason: why } : {}),
      removedAt: c.removedAt,
      skills: c.skills.map((s) => ({ name: s.name, digest: s.digest })),
    };
  });
}

/** Why SkillDock must not delete this recorded workspace, or null when it is its own. */
function notOurs(home: string, c: ConversationIndex): string | null {
  const root = workspacesRoot(home);
  if (path.resolve(c.workspace) !== path.join(root, c.id)) return `recorded path is not ${path.join(root, c.id)}`;
  try {
    const st = fs.lstatSync(c.workspace);
    if (!st.isDirectory()) return 'not a real directory';
  } catch {
    return null; // already gone: only the record and data dir remain
  }
  return null;
}

export function clean(home: string, log: ConversationLog, opts: { olderThanMs: number; dryRun: boolean; now?: number }): CleanResult {
  const convs = log.list().filter((c) => !c.removedAt);
  const infos = new Map(describe(convs, opts.now).map((i) => [i.conversationId, i]));
  const result: CleanResult = { removed: [], kept: [], dryRun: opts.dryRun };
  const removedIds: string[] = [];
  for (const c of convs) {
    const info = infos.get(c.id)!;
    const keep = (reason: string) => result.kept.push({ conversationId: c.id, workspace: c.workspace, reason });
    if (info.inUse) {
      keep(`in use: ${info.inUseReason}`);
      continue;
    }
    if (info.ageMs < opts.olderThanMs) {
      keep(`last used ${formatAge(info.ageMs)} ago`);
      continue;
    }
    const dataDir = conversationDataDir(home, c.id);
    if (path.resolve(c.dataDir) !== dataDir) {
      keep(`recorded data dir is not ${dataDir}`);
      continue;
    }
    let links = 0;
    if (c.temporary) {
      const why = notOurs(home, c);
      if (why) {
        keep(`not removed: ${why}`);
        continue;
      }
      if (!opts.dryRun) links += removeTreeNoFollow(c.workspace).links;
    }
    if (!opts.dryRun) links += removeTreeNoFollow(dataDir).links;
    result.removed.push({ conversationId: c.id, workspace: c.workspace, temporary: c.temporary, linksRemoved: links });
    removedIds.push(c.id);
  }
  if (!opts.dryRun && removedIds.length) {
    log.markRemoved(removedIds, new Date(opts.now ?? Date.now()).toISOString());
  }
  return result;
}

export function formatAge(ms: number): string {
  const m = Math.round(ms / 60_000);
  if (m < 60) return `${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} d`;
}

/** `7d`, `12h`, `30m`, `45s`, `0`: the cleanup threshold in ms; null when unparseable. */
export function parseDuration(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)\s*(d|h|m|s)?$/i.exec(text.trim());
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 'd').toLowerCase();
  const mult = unit === 'd' ? 86_400_000 : unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : 1000;
  return Math.round(n * mult);
}
