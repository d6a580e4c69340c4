import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatMessage, type MessageRef, type ProjectPlan, type ProjectWrite } from '../../contract/index.js';
import { printJson, paint, termSafe } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

/** One line per write: what and where, relative to the project. */
export function writeLines(io: CliIO, writes: ProjectWrite[]): void {
  for (const w of writes) {
    const what = w.kind === 'link' ? `${w.path} -> ${w.target}` : w.kind === 'dir' ? `${w.path}/` : w.path;
    const tag = w.kind === 'lock' ? (w.action === 'update' ? 'update' : 'create') : w.kind;
    io.out(`  ${paint(io.color, w.kind === 'lock' ? 'yellow' : 'dim', tag.padEnd(6))} ${termSafe(what)}`);
  }
}

/** A refusal's problems, one a line (the error's own message joins them into one). */
export function refusalLines(io: CliIO, err: unknown): boolean {
  const details = (err as { details?: { problems?: unknown; project?: unknown } })?.details;
  if (!Array.isArray(details?.problems)) return false;
  const problems = details.problems as MessageRef[];
  io.err(`Nothing was written in ${termSafe(String(details.project))}:`);
  for (const p of problems) {
    // The window words these without a command; a terminal user gets the one to type.
    const approve = p.key === 'project.needs-approval' || p.key === 'project.install-approve';
    const raw = p.params?.library ?? p.params?.skill;
    const name = typeof raw === 'string' ? raw : '';
    io.err(`  - ${termSafe(formatMessage(p))}${approve ? ` (skilldock approve ${termSafe(name)})` : ''}`);
  }
  return true;
}

function printPlan(io: CliIO, plan: ProjectPlan, applied: boolean): void {
  io.out(`${paint(io.color, 'bold', termSafe(plan.project))}`);
  for (const f of plan.folders) io.out(`  folder ${termSafe(f.folder)}  for ${f.agents.join(', ')}`);
  for (const s of plan.skills) io.out(`  skill  ${termSafe(s.name).padEnd(24)} ${s.status}${s.locked ? ', locked' : ''}`);
  for (const n of plan.notes) io.out(`  ${paint(io.color, 'dim', termSafe(formatMessage(n)))}`);
  for (const p of plan.problems) io.out(`  ${paint(io.color, 'red', termSafe(formatMessage(p)))}`);
  if (!plan.writes.length) {
    io.out('Nothing to write: the project already has these skills.');
    return;
  }
  io.out(applied ? `Wrote ${plan.writes.length} entries:` : `Would write ${plan.writes.length} entries (run again with --apply):`);
  writeLines(io, plan.writes);
  if (!applied && plan.lock.action !== 'unchanged') {
    io.out(`${plan.lock.action === 'create' ? 'New' : 'Updated'} ${plan.lock.path}:`);
    io.out(termSafe(plan.lock.content).trimEnd());
  }
}

export const projectCommand: CliCommandModule = {
  usage: 'skilldock project <dir> --skill NAME... --agent ID... [--apply] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        apply: { type: 'boolean' },
        skill: { type: 'string', multiple: true },
        agent: { type: 'string', multiple: true },
      },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give the project folder');
    if (!values.skill?.length) throw new UsageError('give at least one --skill NAME (a library skill)');
    if (!values.agent?.length) throw new UsageError('give at least one --agent ID (see skilldock agents)');
    const input = { project: path.resolve(io.cwd, positionals[0]!), skills: values.skill, agents: values.agent };
    const api = io.service().api;
    try {
      if (!values.apply) {
        const plan = await api.planProjectDeploy(input);
        if (values.json) printJson(io, plan);
        else printPlan(io, plan, false);
        return plan.problems.length ? 1 : 0;
      }
      const out = await api.applyProjectDeploy(input);
      if (values.json) printJson(io, out);
      else printPlan(io, out.plan, true);
      return 0;
    } catch (err) {
      if (!values.json && refusalLines(io, err)) return 1;
      throw err;
    }
  },
};
