import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { UsageSummary } from '../../contract/index.js';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

const USAGE = `skilldock usage [--agent ID] [--days N] [--json]
skilldock usage scan [--opt-in] [--json]
skilldock usage clear

Which skills agents really loaded, per skill and agent: the last use and the count over 7, 30 and
90 days (and over --days N). Recorded by the hook of conversations SkillDock launched and, when
you opt in, read from the agents' own session logs (Claude Code: ~/.claude/projects, Codex:
~/.codex/sessions), read only. Everything stays in SkillDock's home; nothing is uploaded.
scan reads what the agents wrote since the last scan (--opt-in turns reading their logs on first).
clear forgets every recorded use.`;

function ago(iso: string | null, now: number): string {
  if (!iso) return '–';
  const days = Math.floor((now - Date.parse(iso)) / 86_400_000);
  return days <= 0 ? 'today' : `${days}d ago`;
}

export function formatUsage(s: UsageSummary, color: boolean, now = Date.now()): string {
  const lines: string[] = [];
  const extra = ![7, 30, 90].includes(s.days);
  const head = ['skill', 'agent', 'last used', '7d', '30d', '90d', ...(extra ? [`${s.days}d`] : [])];
  const rows = s.rows.map((r) => [
    r.skill,
    r.agent,
    ago(r.lastUsed, now),
    String(r.counts.d7),
    String(r.counts.d30),
    String(r.counts.d90),
    ...(extra ? [String(r.counts.days)] : []),
  ]);
  if (!rows.length) lines.push('No skill use recorded yet.');
  else {
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    lines.push(
      paint(
        color,
        'bold',
        head
          .map((h, i) => h.padEnd(w[i]!))
          .join('  ')
          .trimEnd(),
      ),
    );
    for (const r of rows)
      lines.push(
        r
          .map((c, i) => c.padEnd(w[i]!))
          .join('  ')
          .trimEnd(),
      );
  }
  for (const a of s.unknown)
    lines.push(paint(color, 'yellow', `usage unknown for ${a}: its session log format is not one this SkillDock knows`));
  for (const [agent, st] of Object.entries(s.logs)) {
    if (!st || !s.readLogs) continue;
    const skipped = st.bad + st.tooLong;
    lines.push(
      paint(
        color,
        'dim',
        `${agent} logs: ${st.files} files, ${st.lines} new lines read${skipped ? `, ${skipped} bad lines skipped` : ''} (${st.format})`,
      ),
    );
  }
  if (!s.readLogs) lines.push(paint(color, 'dim', "Agents' own session logs are not read (skilldock usage scan --opt-in)."));
  return lines.join('\n');
}

async function hook(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { agent: { type: 'string' } }, strict: true });
  if (!values.agent) throw new UsageError('--agent is required');
  const stdin = io.stdin ?? fs.readFileSync(0, 'utf8');
  const { recordHook } = await import('../../usage/index.js');
  await io.engine(async (ctx) => recordHook(ctx.paths.home, values.agent!, stdin));
  return 0;
}

export const usageCommand: CliCommandModule = {
  usage: USAGE,
  async run(argv, io) {
    const [first, ...rest] = argv;
    if (first === 'hook') return hook(rest, io);
    if (first === 'clear') {
      if (rest.length) throw new UsageError('clear takes no arguments');
      await io.service().api.usageClear({});
      io.out('Usage ledger cleared.');
      return 0;
    }
    if (first === 'scan') {
      const { values } = parseArgs({ args: rest, options: { 'opt-in': { type: 'boolean' }, json: { type: 'boolean' } }, strict: true });
      const api = io.service().api;
      if (values['opt-in']) await api.updateSettings({ usageReadLogs: true });
      const s = await api.usageScan({});
      if (values.json) printJson(io, s);
      else io.out(formatUsage(s, io.color));
      return 0;
    }
    const { values, positionals } = parseArgs({
      args: argv,
      options: { agent: { type: 'string' }, days: { type: 'string' }, json: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length) throw new UsageError(`unknown action "${positionals[0]}" (scan, clear)`);
    const days = values.days === undefined ? undefined : Number(values.days);
    if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= 400))
      throw new UsageError('--days is a whole number from 1 to 400');
    const s = await io.service().api.usageSummary({ ...(values.agent ? { agent: values.agent } : {}), ...(days ? { days } : {}) });
    if (values.json) printJson(io, s);
    else io.out(formatUsage(s, io.color));
    return 0;
  },
};
