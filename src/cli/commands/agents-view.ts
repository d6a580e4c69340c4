import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AgentView } from '../../contract/index.js';
import { paint, printJson, termSafeDeep } from '../format.js';
import { formatMessage } from '../../contract/messages-text.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

export function formatAgentView(raw: AgentView, color: boolean): string {
  const v = termSafeDeep(raw);
  const lines = [`${paint(color, 'bold', v.agent.name)} (${v.agent.id}), same name: ${v.sameName ?? 'unknown'}`, '', 'roots read:'];
  for (const r of v.roots) lines.push(`  ${r.exists ? '+' : '-'} ${r.id}  ${r.path}`);
  lines.push('');
  // The agent's order (measured); an unstable one is said, and no skill is given a place in it.
  if (v.listingOrder) lines.push(`listing order: ${formatMessage(v.listingOrder.msg)}`, '');
  const colour = { loaded: 'green', mangled: 'yellow', dropped: 'red', shadowed: 'dim', ambiguous: 'yellow' } as const;
  for (const s of v.skills) {
    const l = s.listing;
    // Loaded but hidden: the agent leaves it out of its model's listing (`disable-model-invocation`).
    const unlisted = s.status === 'loaded' || s.status === 'mangled';
    const shown =
      l.shown === 'hidden'
        ? unlisted && l.measured
          ? '  shown: not listed'
          : ''
        : l.shown === 'shortened'
          ? `  shown: cut to ${l.chars} chars`
          : l.shown === 'name-only'
            ? '  shown: name only'
            : '';
    const place = typeof l.position === 'number' ? `  #${l.position + 1} in the listing` : '';
    lines.push(
      `  ${paint(color, colour[s.status], s.status.padEnd(9))} ${l.shown === 'hidden' ? s.identifier : l.label}  ${paint(color, 'dim', s.entryId)}${shown}${place}`,
    );
    for (const r of s.reasons) lines.push(`      ${paint(color, 'dim', r.code)}  ${r.message}`);
  }
  for (const n of v.nested) lines.push(`  ${n.found ? 'nested (found)' : 'nested (missed)'}  ${n.dir}`);
  const b = v.budget;
  lines.push(
    '',
    b.limit === null
      ? `catalog: ${b.used} characters (no known budget)`
      : paint(
          color,
          b.over ? 'red' : 'green',
          `catalog: ${b.used} of ${b.limit} characters${b.over ? ` — over budget: ${b.overflow ?? ''}` : ''}`,
        ),
  );
  for (const c of b.costliest) lines.push(`  ${String(c.chars).padStart(6)}  ${c.identifier}`);
  const n = v.counts;
  lines.push('', `${n.loaded} loaded, ${n.mangled} mangled, ${n.dropped} dropped, ${n.shadowed} shadowed, ${n.ambiguous} ambiguous`);
  return lines.join('\n');
}

export const agentsViewCommand: CliCommandModule = {
  usage: 'skilldock agents-view <agent> [--json] [--project DIR] [--root DIR]...',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, project: { type: 'string' }, root: { type: 'string', multiple: true } },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one agent id (claude, gemini, codex, opencode, qwen...)');
    const view = await io.service().api.agentView({
      agent: positionals[0],
      ...(values.project ? { project: path.resolve(io.cwd, values.project) } : {}),
      ...(values.root?.length ? { roots: values.root.map((r) => path.resolve(io.cwd, r)) } : {}),
    });
    if (values.json) printJson(io, view);
    else io.out(formatAgentView(view, io.color));
    return 0;
  },
};
