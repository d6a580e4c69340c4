import type { UsageRow, UsageSummary } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { getSettings } from '../settings/settings.js';
import { Ledger, countSince, type LedgerData, type LogState } from './ledger.js';
import { LOG_SOURCES, scanSource } from './logs.js';

// The usage domain's service: summaries of the ledger, the opt-in scan of the agents' own logs,
// and clearing. The hook's side (appending one line per use) is src/usage/hook.ts, which does not
// load this.

const DAY = 86_400_000;

function logState(s: LogState | undefined): UsageSummary['logs'][string] {
  return s ? { ...s, scannedAt: new Date(s.scannedAt).toISOString() } : null;
}

export function summarize(d: LedgerData, o: { agent?: string; days?: number; readLogs: boolean }, now = Date.now()): UsageSummary {
  const days = o.days ?? 90;
  const windows = [7, 30, 90, days].map((n) => countSince(d, now - n * DAY));
  const rows: UsageRow[] = [];
  for (const [k, t] of Object.entries(d.last)) {
    const [agent, skill] = k.split('\t') as [string, string];
    if (o.agent && agent !== o.agent) continue;
    const [d7, d30, d90, dn] = windows.map((w) => w.get(k) ?? 0) as [number, number, number, number];
    rows.push({ skill, agent, lastUsed: new Date(t).toISOString(), counts: { d7, d30, d90, days: dn } });
  }
  rows.sort((a, b) => a.skill.localeCompare(b.skill) || a.agent.localeCompare(b.agent));
  const logs: UsageSummary['logs'] = {};
  for (const src of LOG_SOURCES) if (!o.agent || o.agent === src.agent) logs[src.agent] = logState(d.logs[src.agent]);
  const unknown = o.readLogs
    ? Object.entries(d.logs)
        .filter(([a, s]) => s.format === 'unknown' && (!o.agent || a === o.agent))
        .map(([a]) => a)
    : [];
  return { rows, days, readLogs: o.readLogs, logs, unknown };
}

export class UsageService {
  readonly ledger: Ledger;
  constructor(private readonly ctx: ServiceContext) {
    this.ledger = new Ledger(ctx.paths.home);
  }

  private readLogs(): boolean {
    return getSettings(this.ctx).get().usageReadLogs;
  }

  summary(o: { agent?: string; days?: number }): UsageSummary {
    return summarize(this.ledger.snapshot(), { ...o, readLogs: this.readLogs() });
  }

  /** Read what the agents wrote to their logs since the last scan. */
  scan(now = Date.now()): UsageSummary {
    if (!this.readLogs()) throw fail('refused', 'usage.logs-off');
    const d = this.ledger.update((data, add) => {
      for (const src of LOG_SOURCES) data.logs[src.agent] = scanSource(src, this.ctx.paths.userHome, data, (a, u) => add(a, u, 'log'), now);
      return data;
    }, now);
    return summarize(d, { readLogs: true });
  }

  clear(): void {
    this.ledger.clear();
  }
}

export function getUsage(ctx: ServiceContext): UsageService {
  return ctx.use('usage', () => new UsageService(ctx));
}
