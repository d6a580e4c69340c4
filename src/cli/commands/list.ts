import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Catalog } from '../../contract/index.js';
import { paint, printJson, printJsonPieces } from '../format.js';
import type { ServiceContext } from '../../service-context.js';
import type { CliCommandModule, CliIO } from '../types.js';

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : flat;
}

export function formatCatalog(catalog: Catalog, color: boolean): string {
  if (!catalog.entries.length) return 'No skills found. Run `skilldock roots` to see where SkillDock looks.';
  const width = Math.min(40, Math.max(...catalog.entries.map((e) => e.name.length)));
  const lines = catalog.entries.map((e) => {
    const c = e.counts;
    const status = c.errors
      ? paint(color, 'red', `${c.errors}E`)
      : c.warnings
        ? paint(color, 'yellow', `${c.warnings}W`)
        : paint(color, 'green', 'ok');
    const name = e.shadowedBy ? paint(color, 'dim', e.name.padEnd(width)) : paint(color, 'bold', e.name.padEnd(width));
    const where = paint(color, 'dim', e.provenance.rootId + (e.shadowedBy ? ` (shadowed by ${e.shadowedBy})` : ''));
    return `${name}  ${status.padEnd(color ? 11 : 3)}  ${where}  ${oneLine(e.description, 80)}`;
  });
  const shadowed = catalog.entries.filter((e) => e.shadowedBy).length;
  lines.push('', `${catalog.entries.length} skills (${shadowed} shadowed), ${catalog.rootDiagnostics.length} root findings`);
  return lines.join('\n');
}

export const listCommand: CliCommandModule = {
  usage: 'skilldock list [--json] [--project DIR] [--root DIR]...',
  async run(argv: string[], io: CliIO): Promise<number> {
    const { values } = parseArgs({
      args: argv,
      options: { json: { type: 'boolean' }, project: { type: 'string' }, root: { type: 'string', multiple: true } },
    });
    const query = {
      ...(values.project ? { project: path.resolve(io.cwd, values.project) } : {}),
      ...(values.root?.length ? { roots: values.root.map((r) => path.resolve(io.cwd, r)) } : {}),
    };
    // The catalog alone (what the service's listCatalog runs), without the rest of the engine.
    const catalogOf = async (ctx: ServiceContext) => (await import('../../catalog/index.js')).getCatalog(ctx);
    if (values.json && io.prettyJson === false) {
      // Compact JSON as pieces: most entries are copied as the catalog index holds their text.
      printJsonPieces(io, await io.engine(async (ctx) => (await catalogOf(ctx)).listJson(query)));
      return 0;
    }
    const catalog = await io.engine(async (ctx) => (await catalogOf(ctx)).list(query));
    if (values.json) printJson(io, catalog);
    else io.out(formatCatalog(catalog, io.color)); // escaped at the edge (guardEdge in main.ts)
    return 0;
  },
};
