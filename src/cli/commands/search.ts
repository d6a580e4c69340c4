import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';
import { RiskSchema } from '../../contract/index.js';

const USAGE =
  'skilldock search <words...> [--catalog ID]... [--agent AGENT] [--scripts|--no-scripts] [--max-risk none|low|medium|high] [--installed|--not-installed] [--limit N] [--json]';

export const searchCommand: CliCommandModule = {
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        catalog: { type: 'string', multiple: true },
        agent: { type: 'string' },
        scripts: { type: 'boolean' },
        'no-scripts': { type: 'boolean' },
        'max-risk': { type: 'string' },
        installed: { type: 'boolean' },
        'not-installed': { type: 'boolean' },
        limit: { type: 'string' },
      },
      allowPositionals: true,
    });
    const risk = values['max-risk'] === undefined ? undefined : RiskSchema.safeParse(values['max-risk']);
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if ((risk && !risk.success) || (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 500))) {
      io.err(`usage: ${USAGE}`);
      return 2;
    }
    const r = await io.service().api.searchSkills({
      query: positionals.join(' '),
      ...(values.catalog?.length ? { catalogs: values.catalog } : {}),
      ...(values.agent ? { agent: values.agent } : {}),
      ...(values.scripts ? { scripts: true } : values['no-scripts'] ? { scripts: false } : {}),
      ...(risk?.success ? { maxRisk: risk.data } : {}),
      ...(values.installed ? { installed: true } : values['not-installed'] ? { installed: false } : {}),
      ...(limit ? { limit } : {}),
    });
    if (values.json) {
      printJson(io, r);
      return 0;
    }
    if (!r.results.length)
      io.out('No skills found. Subscribed catalogs are searched offline: refresh them with skilldock catalog refresh.');
    for (const s of r.results) {
      const mark = s.installed ? paint(io.color, 'green', s.updateAvailable ? ' [installed, update available]' : ' [installed]') : '';
      const risk = s.risk === 'none' || s.remote ? '' : paint(io.color, s.risk === 'high' ? 'red' : 'yellow', ` risk:${s.risk}`);
      io.out(
        `${paint(io.color, 'bold', s.name)}  ${paint(io.color, 'dim', `${s.catalog}:${s.repo ? `${s.repo} ` : ''}${s.path}`)}${risk}${mark}`,
      );
      if (s.description) io.out(`    ${s.description.slice(0, 200)}`);
    }
    for (const p of r.problems) io.out(paint(io.color, 'yellow', p.message));
    if (r.total > r.results.length) io.out(paint(io.color, 'dim', `${r.results.length} of ${r.total} shown (--limit N for more).`));
    return 0;
  },
};
