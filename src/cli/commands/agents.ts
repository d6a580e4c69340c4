import { parseArgs } from 'node:util';
import type { AgentInfo, CustomAgent } from '../../contract/index.js';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

const USAGE = `skilldock agents [<action>] [options]

  list                            every agent (the default): shipped ones and your custom ones
  show <id>                       one agent's registry entry
  add <id> --name N --command C --skills-dir D --context-file F
                                  add a custom agent; D and F are relative to the workspace,
                                  e.g. --skills-dir .myagent/skills --context-file MYAGENT.md
  remove <id>                     remove a custom agent (shipped agents cannot be removed)

Every action takes --json.`;

const ADD_OPTIONS = {
  name: { type: 'string' },
  command: { type: 'string' },
  'skills-dir': { type: 'string' },
  'context-file': { type: 'string' },
} as const;

type Action = (ids: string[], values: Record<string, string | boolean | undefined>, io: CliIO) => Promise<number>;

function oneId(ids: string[]): string {
  if (ids.length === 0) throw new UsageError('expected an agent id');
  if (ids.length > 1) throw new UsageError(`unexpected argument: ${ids[1]}`);
  return ids[0];
}

function printList(agents: AgentInfo[], io: CliIO): void {
  const c = io.color;
  const width = Math.max(9, ...agents.map((a) => a.id.length));
  for (const a of agents) {
    const custom = a.evidence === 'custom' ? paint(c, 'cyan', ' (custom)') : '';
    const inst = a.installed === null ? '' : a.installed ? paint(c, 'green', ' installed') : paint(c, 'dim', ' not on PATH');
    io.out(`${paint(c, 'bold', a.id.padEnd(width))} ${a.name}${custom}${inst}`);
    io.out(
      `  links into ${a.nativeSkillsDir}, context ${a.contextFile}${a.extraDirFlag ? `, extra dirs ${a.extraDirFlag}` : ''}${a.extraDirLoadsSkills ? ' (loads skills there)' : ''}`,
    );
  }
}

const actions: Record<string, Action> = {
  async list(ids, values, io) {
    if (ids.length) throw new UsageError(`unexpected argument: ${ids[0]}`);
    const agents = await io.service().api.listAgents({});
    if (values.json) printJson(io, agents);
    else printList(agents, io);
    return 0;
  },

  async show(ids, values, io) {
    const id = oneId(ids);
    const agents = await io.service().api.listAgents({});
    const a = agents.find((x) => x.id === id);
    if (!a) {
      io.err(`skilldock agents: unknown agent "${id}"; agents: ${agents.map((x) => x.id).join(', ')}`);
      return 1;
    }
    if (values.json) printJson(io, a);
    else for (const [k, v] of Object.entries(a)) io.out(`${k.padEnd(20)} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
    return 0;
  },

  async add(ids, values, io) {
    const id = oneId(ids);
    const missing = Object.keys(ADD_OPTIONS).filter((k) => typeof values[k] !== 'string');
    if (missing.length) throw new UsageError(`add needs ${missing.map((k) => `--${k}`).join(', ')}`);
    const api = io.service().api;
    const { customAgents } = await api.getSettings({});
    const draft: CustomAgent = {
      id,
      name: values.name as string,
      command: values.command as string,
      skillsDir: values['skills-dir'] as string,
      contextFile: values['context-file'] as string,
    };
    // The engine checks the whole entry (paths inside the workspace, ids unique): its message
    // names the field, and a refusal exits 1 through the dispatcher.
    const saved = await api.updateSettings({ customAgents: [...customAgents, draft] });
    const agent = saved.customAgents.find((a) => a.id === id)!;
    if (values.json) printJson(io, agent);
    else
      io.out(
        `Added custom agent ${agent.id} (${agent.name}): runs \`${agent.command}\`, links skills into ${agent.skillsDir}, context file ${agent.contextFile}`,
      );
    return 0;
  },

  async remove(ids, values, io) {
    const id = oneId(ids);
    const api = io.service().api;
    const { customAgents } = await api.getSettings({});
    const agent = customAgents.find((a) => a.id === id);
    if (!agent) {
      const { fail } = await import('../../errors.js');
      const shipped = (await api.listAgents({})).some((a) => a.id === id && a.evidence !== 'custom');
      if (shipped) throw fail('refused', 'custom-agent.builtin-not-removable', { agent: id });
      const known = customAgents.map((a) => a.id);
      throw known.length
        ? fail('not-found', 'custom-agent.not-found', { agent: id, known })
        : fail('not-found', 'custom-agent.not-found-none', { agent: id });
    }
    await api.updateSettings({ customAgents: customAgents.filter((a) => a.id !== id) });
    if (values.json) printJson(io, agent);
    else io.out(`Removed custom agent ${agent.id} (${agent.name})`);
    return 0;
  },
};

export const agentsCommand: CliCommandModule = {
  usage: USAGE,
  async run(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { json: { type: 'boolean' }, ...ADD_OPTIONS },
    });
    const [name = 'list', ...ids] = positionals;
    const action = actions[name];
    if (!action) throw new UsageError(`unknown action "${name}"`);
    const given = values as Record<string, string | boolean | undefined>;
    const addOnly = Object.keys(ADD_OPTIONS).find((k) => given[k] !== undefined);
    if (addOnly && name !== 'add') throw new UsageError(`--${addOnly} only goes with add`);
    return action(ids, given, io);
  },
};
