import { parseArgs } from 'node:util';
import { paint, printJson } from '../format.js';
import type { CliCommandModule, CliIO } from '../types.js';
import { CatalogKindSchema } from '../../contract/index.js';

const USAGE = [
  'skilldock catalog list [--json]',
  'skilldock catalog add <url> [--kind git|marketplace|well-known|search-api] [--ref REF] [--id ID] [--json]',
  'skilldock catalog remove <id> [--json]',
  'skilldock catalog enable|disable <id> [--json]',
  'skilldock catalog refresh [ID...] [--force] [--json]',
].join('\n       ');

async function list(io: CliIO, json: boolean): Promise<number> {
  const { catalogs } = await io.service().api.listCatalogs({});
  if (json) return (printJson(io, { catalogs }), 0);
  for (const c of catalogs) {
    const state = c.enabled ? paint(io.color, 'green', 'on ') : paint(io.color, 'dim', 'off');
    const when =
      c.kind === 'search-api'
        ? 'asked at each search'
        : c.refreshedAt
          ? `${c.skills} skills, refreshed ${c.refreshedAt}`
          : 'not indexed yet';
    io.out(`${state} ${paint(io.color, 'bold', c.id)}  ${c.kind}  ${c.url}  (${when})`);
    if (c.error) io.out(paint(io.color, 'yellow', `    ${c.error.message}`));
  }
  return 0;
}

export const catalogCommand: CliCommandModule = {
  usage: USAGE,
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean' },
        kind: { type: 'string' },
        ref: { type: 'string' },
        id: { type: 'string' },
        force: { type: 'boolean' },
      },
      allowPositionals: true,
    });
    const [sub, ...rest] = positionals;
    const json = !!values.json;
    const api = io.service().api;
    switch (sub) {
      case undefined:
      case 'list':
        return list(io, json);
      case 'add': {
        const kind = values.kind === undefined ? undefined : CatalogKindSchema.safeParse(values.kind);
        if (rest.length !== 1 || (kind && !kind.success)) break;
        const { catalog } = await api.addCatalog({
          url: rest[0]!,
          ...(kind?.success ? { kind: kind.data } : {}),
          ...(values.ref ? { ref: values.ref } : {}),
          ...(values.id ? { id: values.id } : {}),
        });
        if (json) printJson(io, { catalog });
        else
          io.out(`Added catalog ${catalog.id} (${catalog.kind}, ${catalog.url}). Index it with: skilldock catalog refresh ${catalog.id}`);
        return 0;
      }
      case 'remove': {
        if (rest.length !== 1) break;
        const r = await api.removeCatalog({ id: rest[0]! });
        if (json) printJson(io, r);
        else io.out(`Removed catalog ${r.id} and its index.`);
        return 0;
      }
      case 'enable':
      case 'disable': {
        if (rest.length !== 1) break;
        const { catalog } = await api.setCatalogEnabled({ id: rest[0]!, enabled: sub === 'enable' });
        if (json) printJson(io, { catalog });
        else io.out(`${catalog.id} is turned ${catalog.enabled ? 'on' : 'off'}.`);
        return 0;
      }
      case 'refresh': {
        const { results } = await api.refreshCatalogs({ ...(rest.length ? { ids: rest } : {}), ...(values.force ? { force: true } : {}) });
        if (json) printJson(io, { results });
        else for (const r of results) io.out(r.status === 'failed' ? paint(io.color, 'red', r.message) : r.message);
        return results.some((r) => r.status === 'failed') ? 1 : 0;
      }
    }
    io.err(`usage: ${USAGE}`);
    return 2;
  },
};
