import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import { UsageError, type CliCommandModule, type CliIO } from '../types.js';

export const newCommand: CliCommandModule = {
  usage: 'skilldock new <name> [--template plain|scripts|references] [--description TEXT] [--json]',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        template: { type: 'string', default: 'plain' },
        description: { type: 'string' },
      },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError('give the name of the new skill');
    const { SkillTemplateSchema } = await import('../../contract/index.js');
    const template = SkillTemplateSchema.safeParse(values.template);
    if (!template.success) throw new UsageError('--template must be plain, scripts or references');
    const api = io.service().api;
    const name = positionals[0];
    const check = await api.checkSkillName({ name });
    const out = await api.createSkill({
      name,
      template: template.data,
      ...(values.description !== undefined ? { description: values.description } : {}),
    });
    if (values.json) {
      printJson(io, { ...out, clashes: check.clashes, diagnostics: check.diagnostics });
      return 0;
    }
    io.out(`${paint(io.color, 'bold', out.name)}: created at ${out.dir}`);
    for (const f of out.files) io.out(`  ${f}`);
    for (const d of check.diagnostics) io.out(`  ${d.severity}: ${d.message}`);
    for (const c of check.clashes) {
      io.out(
        c.relation === 'shadowed-by'
          ? `  note: the ${c.rootKind} skill ${c.entryId} has the same name and wins over this one`
          : `  note: this skill hides the ${c.rootKind} skill ${c.entryId} of the same name`,
      );
    }
    io.out(paint(io.color, 'dim', `undo: skilldock undo ${out.journalId}`));
    return 0;
  },
};
