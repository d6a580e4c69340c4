import path from 'node:path';
import { parseArgs } from 'node:util';
import { printJson } from '../format.js';
import { formatMessage } from '../../contract/messages-text.js';
import { UsageError, type CliIO } from '../types.js';
import { CONFLICT_CHOICES } from './library-format.js';

// `skilldock assistant export|import`: share an assistant as one JSON file (src/sources/share.ts).

export const shareActions: Record<string, (argv: string[], io: CliIO) => Promise<number>> = {
  async export(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean' }, out: { type: 'string' } },
    });
    if (positionals.length !== 1) throw new UsageError('name one assistant to export');
    const out = values.out ? path.resolve(io.cwd, values.out) : undefined;
    const r = await io.service().api.exportAssistant({ assistant: positionals[0]!, ...(out ? { out } : {}) });
    if (!r.file || values.json) printJson(io, r.file ? r : r.data);
    else {
      const local = r.data.skills.filter((s) => !s.source).length;
      io.out(`Wrote ${r.file}: ${r.data.name}, ${r.data.skills.length} skills (${local} local-only)`);
    }
    return 0;
  },

  async import(argv, io) {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        name: { type: 'string' },
        'on-conflict': { type: 'string' },
        'allow-empty': { type: 'boolean' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give one assistant file');
    const choice = values['on-conflict'];
    if (choice !== undefined && !(CONFLICT_CHOICES as readonly string[]).includes(choice)) {
      throw new UsageError(`--on-conflict must be one of ${CONFLICT_CHOICES.join(', ')}`);
    }
    const r = await io.service().api.importAssistant({
      file: path.resolve(io.cwd, positionals[0]!),
      ...(values.name ? { name: values.name } : {}),
      ...(choice ? { onConflict: choice as (typeof CONFLICT_CHOICES)[number] } : {}),
      ...(values['allow-empty'] ? { allowEmpty: true } : {}),
    });
    if (values.json) printJson(io, r);
    else {
      if (!r.refused) io.out(`Created assistant "${r.name}"`);
      for (const s of r.skills) io.out(`  ${s.status.padEnd(9)} ${s.name}${s.message ? `  ${s.message}` : ''}`);
      if (r.refused) io.err(`skilldock assistant import: ${formatMessage(r.refused)} (--allow-empty creates it without skills)`);
    }
    return !r.refused && r.skills.every((s) => s.status === 'added' || s.status === 'present') ? 0 : 1;
  },
};
