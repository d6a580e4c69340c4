import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommand } from '../types.js';

export const agentsCommand: CliCommand = {
  name: 'agents',
  summary: 'The agent registry: where each agent CLI reads skills and how SkillDock launches it',
  usage: 'skilldock agents [list | show <id>] [--json]',
  async run(argv, io) {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { json: { type: 'boolean' } } });
    const [action = 'list', id, ...extra] = positionals;
    if (extra.length) throw new UsageError(`unexpected argument: ${extra[0]}`);
    const agents = await io.service().api.listAgents({});
    const c = io.color;
    if (action === 'list') {
      if (id) throw new UsageError(`unexpected argument: ${id}`);
      if (values.json) {
        printJson(io, agents);
        return 0;
      }
      for (const a of agents) {
        const inst = a.installed === null ? '' : a.installed ? paint(c, 'green', ' installed') : paint(c, 'dim', ' not on PATH');
        io.out(`${paint(c, 'bold', a.id.padEnd(9))} ${a.name}${inst}`);
        io.out(`  links into ${a.nativeSkillsDir}, context ${a.contextFile}${a.extraDirFlag ? `, extra dirs ${a.extraDirFlag}` : ''}${a.extraDirLoadsSkills ? ' (loads skills there)' : ''}`);
      }
      return 0;
    }
    if (action === 'show') {
      if (!id) throw new UsageError('expected an agent id');
      const a = agents.find((x) => x.id === id);
      if (!a) {
        io.err(`skilldock agents: unknown agent "${id}"; agents: ${agents.map((x) => x.id).join(', ')}`);
        return 1;
      }
      if (values.json) printJson(io, a);
      else for (const [k, v] of Object.entries(a)) io.out(`${k.padEnd(20)} ${typeof v === 'string' ? v : JSON.stringify(v)}`);
      return 0;
    }
    throw new UsageError(`unknown action "${action}"`);
  },
};
