import { parseArgs } from 'node:util';
import path from 'node:path';
import { formatMessage, type DeployResult, type DeployStatus, type MessageRef } from '../../contract/index.js';
import { printJson, termSafe } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

// `skilldock deploy | undeploy | status | repair`: the deployments of library skills to agents'
// own user folders (src/deploy). Exit 1 when an entry was left as it is (blocked, conflict) or, for
// status, when anything is not in sync.

const say = (m: MessageRef) => termSafe(formatMessage(m));

function printResult(io: CliIO, r: DeployResult): number {
  for (const q of r.ask) io.err(say(q));
  if (r.ask.length) {
    io.err('Nothing was changed. Answer with --yes to go on.');
    return 1;
  }
  for (const [skill, agents] of Object.entries(r.alsoOn)) io.out(say({ key: 'deploy.also-on', params: { skill, agents } }));
  for (const n of r.notices) io.out(say(n));
  let left = 0;
  for (const s of r.steps) {
    if (s.action === 'blocked' || s.action === 'conflict') {
      left++;
      io.err(`${s.action}: ${s.why ? say(s.why) : termSafe(s.path)}`);
    } else
      io.out(`${s.action.padEnd(7)} ${termSafe(s.path)}${s.mode && s.action !== 'remove' && s.action !== 'forget' ? ` (${s.mode})` : ''}`);
  }
  if (!r.steps.length) io.out('Nothing to change: every folder is as chosen.');
  return left ? 1 : 0;
}

const choiceOptions = {
  json: { type: 'boolean' },
  take: { type: 'string', multiple: true },
  restore: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  yes: { type: 'boolean' },
} as const;

function setCommand(on: boolean): CliCommandModule {
  return {
    usage: on
      ? 'skilldock deploy <skill...> --agent <id...> | --all-agents [--mode link|copy] [--take <path>] [--restore <path>] [--dry-run] [--yes] [--json]'
      : 'skilldock undeploy <skill...> --agent <id...> | --all-agents [--restore <path>] [--dry-run] [--json]',
    async run(argv, io) {
      const { values, positionals } = parseArgs({
        args: argv,
        options: {
          ...choiceOptions,
          agent: { type: 'string', multiple: true },
          'all-agents': { type: 'boolean' },
          mode: { type: 'string', default: 'link' },
        },
        allowPositionals: true,
      });
      if (!positionals.length) throw new UsageError('give at least one library skill name');
      const agents = (values.agent ?? []).flatMap((a) => a.split(',')).filter(Boolean);
      if (!agents.length && !values['all-agents']) throw new UsageError('name the agents (--agent claude --agent codex) or --all-agents');
      if (values.mode !== 'link' && values.mode !== 'copy') throw new UsageError('--mode must be link or copy');
      const r = await io.service().api.deploySet({
        skills: positionals,
        agents,
        allAgents: !!values['all-agents'],
        mode: on ? values.mode : null,
        take: (values.take ?? []).map((p) => path.resolve(io.cwd, p)),
        restore: (values.restore ?? []).map((p) => path.resolve(io.cwd, p)),
        dryRun: !!values['dry-run'],
        confirmed: !!values.yes,
      });
      if (values.json) {
        printJson(io, r);
        return r.ask.length || r.steps.some((s) => s.action === 'blocked' || s.action === 'conflict') ? 1 : 0;
      }
      return printResult(io, r);
    },
  };
}

export const deployCommand = setCommand(true);
export const undeployCommand = setCommand(false);

export const repairCommand: CliCommandModule = {
  usage: 'skilldock repair [--take <path>] [--restore <path>] [--dry-run] [--json]',
  async run(argv, io) {
    const { values } = parseArgs({ args: argv, options: choiceOptions, allowPositionals: false });
    const r = await io.service().api.deployRepair({
      take: (values.take ?? []).map((p) => path.resolve(io.cwd, p)),
      restore: (values.restore ?? []).map((p) => path.resolve(io.cwd, p)),
      dryRun: !!values['dry-run'],
    });
    if (values.json) {
      printJson(io, r);
      return r.steps.some((s) => s.action === 'blocked' || s.action === 'conflict') ? 1 : 0;
    }
    return printResult(io, r);
  },
};

function printStatus(io: CliIO, s: DeployStatus): void {
  const names = new Map(s.agents.map((a) => [a.id, a.name]));
  for (const f of s.folders) {
    const entries = s.entries.filter((e) => e.folder === f.path);
    io.out(`${termSafe(f.path)}  (${f.agents.map((a) => names.get(a) ?? a).join(', ')})${f.exists ? '' : '  [no folder]'}`);
    if (f.problem) io.out(`  ! ${say(f.problem)}`);
    if (f.notice) io.out(`  i ${say(f.notice)}`);
    for (const e of entries) {
      const why = e.reason && e.reason !== e.state ? ` (${e.reason}${e.other ? `: ${termSafe(e.other)}` : ''})` : '';
      const what = e.kind === 'link' ? ` -> ${termSafe(e.linkTarget ?? '')}` : e.kind === 'dir' ? ' [folder]' : '';
      io.out(`  ${e.state.padEnd(9)} ${termSafe(e.name)}${e.managed ? ` [${e.mode}]` : ''}${what}${why}`);
    }
  }
  const counts = Object.entries(s.counts).map(([k, v]) => `${v} ${k}`);
  io.out(counts.length ? counts.join(', ') : 'No skills in any agent folder.');
}

export const statusCommand: CliCommandModule = {
  usage: 'skilldock status [--agent <id>] [--deep] [--json]',
  async run(argv, io) {
    const { values } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, agent: { type: 'string' }, deep: { type: 'boolean' } },
      allowPositionals: false,
    });
    const s = await io.service().api.deployStatus({ ...(values.agent ? { agent: values.agent } : {}), deep: !!values.deep });
    if (values.json) printJson(io, s);
    else printStatus(io, s);
    const bad = s.entries.some((e) => e.managed && e.state !== 'in-sync') || s.entries.some((e) => e.state === 'missing');
    return bad ? 1 : 0;
  },
};
