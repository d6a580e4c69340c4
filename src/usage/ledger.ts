import fs from 'node:fs';
import path from 'node:path';
import { FileLock } from '../store/file-lock.js';
import { writeFileAtomic } from '../store/json-store.js';
import type { SkillUse } from './parsers.js';
import { usageDir, type Via } from './inbox.js';

// The usage ledger: which skill each agent loaded, and when, kept in SkillDock's home only
// (<home>/usage/). Hooks append one short line per use to `inbox.jsonl` (an O_APPEND write, no lock:
// a hook runs before the agent's tool call and must be quick); every read folds the inbox into
// `ledger.json` under a lock. The size stays bounded: events of the last RAW_DAYS days are kept
// one by one (at most MAX_RAW), older ones become a count per day, and days past KEEP_DAYS go.

export interface RawEvent {
  t: number;
  agent: string;
  skill: string;
  via: Via;
  id?: string;
}

/** Per agent, what the last scan of its own logs found. */
export interface LogState {
  /** `unknown`: lines were read but too few looked like the format this build knows. */
  format: 'ok' | 'unknown' | 'none';
  files: number;
  lines: number;
  bad: number;
  tooLong: number;
  /** Bytes read by the last scan (only new bytes are read). */
  bytesRead: number;
  scannedAt: number;
}

export interface LedgerData {
  version: 1;
  events: RawEvent[];
  /** `YYYY-MM-DD` (UTC) -> `agent\tskill` -> count. */
  days: Record<string, Record<string, number>>;
  /** `agent\tskill` -> epoch ms of the last use. */
  last: Record<string, number>;
  /** Tool-call ids already counted (bounded), so a hook and a log seeing one call count it once. */
  seen: string[];
  /** Session logs: path -> the file's identity and the offset after the last line read. */
  offsets: Record<string, { ino: number; offset: number }>;
  logs: Record<string, LogState>;
}

const DAY = 86_400_000;
const RAW_DAYS = 7;
const MAX_RAW = 5_000;
const KEEP_DAYS = 400;
const MAX_SEEN = 10_000;
const MAX_INBOX = 4 * 1024 * 1024;

export const keyOf = (agent: string, skill: string): string => `${agent}\t${skill}`;
export const dayOf = (t: number): string => new Date(t).toISOString().slice(0, 10);

function empty(): LedgerData {
  return { version: 1, events: [], days: {}, last: {}, seen: [], offsets: {}, logs: {} };
}

function validEvent(v: unknown): v is RawEvent {
  const e = v as RawEvent;
  return (
    !!e &&
    typeof e === 'object' &&
    Number.isFinite(e.t) &&
    typeof e.agent === 'string' &&
    e.agent.length > 0 &&
    e.agent.length < 64 &&
    typeof e.skill === 'string' &&
    e.skill.length > 0 &&
    e.skill.length < 256 &&
    (e.via === 'hook' || e.via === 'log')
  );
}

export class Ledger {
  private readonly dir: string;
  private readonly file: string;
  private readonly inbox: string;
  private readonly lock: FileLock;

  constructor(home: string) {
    this.dir = usageDir(home);
    this.file = path.join(this.dir, 'ledger.json');
    this.inbox = path.join(this.dir, 'inbox.jsonl');
    this.lock = new FileLock(path.join(this.dir, 'ledger.lock'));
  }

  private read(): LedgerData {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      return empty();
    }
    try {
      const d = JSON.parse(text) as LedgerData;
      if (d?.version !== 1 || !Array.isArray(d.events) || typeof d.days !== 'object' || typeof d.last !== 'object')
        throw new Error('shape');
      return { ...empty(), ...d, events: d.events.filter(validEvent), seen: Array.isArray(d.seen) ? d.seen : [] };
    } catch {
      // Damaged: kept beside for a look, and the ledger starts again (it is a record, nothing depends on it).
      fs.renameSync(this.file, `${this.file}.damaged-${Date.now()}`);
      return empty();
    }
  }

  private write(d: LedgerData): void {
    writeFileAtomic(this.file, JSON.stringify(d));
  }

  /** Run `fn` on the ledger with the inbox folded in, under the lock; written back when `fn` says so. */
  update<R>(fn: (d: LedgerData, add: (agent: string, use: SkillUse, via: Via) => boolean) => R, now = Date.now()): R {
    fs.mkdirSync(this.dir, { recursive: true });
    return this.lock.run(() => {
      const d = this.read();
      const seen = new Set(d.seen);
      const add = (agent: string, use: SkillUse, via: Via): boolean => {
        if (use.id) {
          const id = `${agent}:${use.id}:${use.skill}`;
          if (seen.has(id)) return false;
          seen.add(id);
          d.seen.push(id);
        }
        d.events.push({ t: use.t, agent, skill: use.skill, via, ...(use.id ? { id: use.id } : {}) });
        const k = keyOf(agent, use.skill);
        if (!(d.last[k]! >= use.t)) d.last[k] = use.t;
        return true;
      };
      this.foldInbox(add);
      const out = fn(d, add);
      this.compact(d, now);
      this.write(d);
      return out;
    });
  }

  /** The hooks' lines: the inbox is moved aside first, so a hook appending meanwhile starts a new one. */
  private foldInbox(add: (agent: string, use: SkillUse, via: Via) => boolean): void {
    const moved = `${this.inbox}.folding`;
    try {
      fs.renameSync(this.inbox, moved);
    } catch {
      if (!fs.existsSync(moved)) return; // nothing new (a left-over from a crash is folded below)
    }
    let text: string;
    try {
      const size = fs.statSync(moved).size;
      // A runaway inbox is not read whole: its last MAX_INBOX bytes are.
      const fd = fs.openSync(moved, 'r');
      try {
        const n = Math.min(size, MAX_INBOX);
        const b = Buffer.alloc(n);
        fs.readSync(fd, b, 0, n, size - n);
        text = b.toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      try {
        const e = JSON.parse(line) as unknown;
        if (validEvent(e)) add(e.agent, { skill: e.skill, t: e.t, ...(typeof e.id === 'string' ? { id: e.id } : {}) }, e.via);
      } catch {
        // a torn line (the hook was killed mid-write): skipped
      }
    }
    fs.rmSync(moved, { force: true });
  }

  /** Old events become per-day counts; the oldest days and ids go. */
  private compact(d: LedgerData, now: number): void {
    const cutoff = now - RAW_DAYS * DAY;
    d.events.sort((a, b) => a.t - b.t);
    let drop = 0;
    while (drop < d.events.length && (d.events[drop]!.t < cutoff || d.events.length - drop > MAX_RAW)) drop++;
    for (const e of d.events.slice(0, drop)) {
      const day = (d.days[dayOf(e.t)] ??= {});
      const k = keyOf(e.agent, e.skill);
      day[k] = (day[k] ?? 0) + 1;
    }
    d.events = d.events.slice(drop);
    const oldest = dayOf(now - KEEP_DAYS * DAY);
    for (const day of Object.keys(d.days)) if (day < oldest) delete d.days[day];
    for (const [k, t] of Object.entries(d.last)) if (t < now - KEEP_DAYS * DAY) delete d.last[k];
    if (d.seen.length > MAX_SEEN) d.seen = d.seen.slice(-MAX_SEEN);
  }

  /** The ledger as it is now (the inbox folded in). */
  snapshot(now = Date.now()): LedgerData {
    return this.update((d) => structuredClone(d), now);
  }

  /**
   * Forget every use. The log offsets stay: what was read before is not counted again, only what
   * the agents write from now on.
   */
  clear(): void {
    fs.mkdirSync(this.dir, { recursive: true });
    this.lock.run(() => {
      const { offsets, logs } = this.read();
      fs.rmSync(this.inbox, { force: true });
      fs.rmSync(`${this.inbox}.folding`, { force: true });
      this.write({ ...empty(), offsets, logs });
    });
  }
}

/** Uses of `agent`/`skill` since `since` (epoch ms): exact events, plus whole days of the aggregate. */
export function countSince(d: LedgerData, since: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of d.events) {
    if (e.t < since) continue;
    const k = keyOf(e.agent, e.skill);
    out.set(k, (out.get(k) ?? 0) + 1);
  }
  const first = dayOf(since);
  for (const [day, counts] of Object.entries(d.days)) {
    if (day < first) continue;
    for (const [k, n] of Object.entries(counts)) out.set(k, (out.get(k) ?? 0) + n);
  }
  return out;
}
