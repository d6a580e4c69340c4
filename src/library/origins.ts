import path from 'node:path';
import { z } from 'zod';
import { ImportOriginSchema, type ImportOrigin, type ImportResult, type LibraryMode, type SkillOrigins } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { openStore } from '../store/index.js';
import { readJournal } from './journal.js';
import { isInside } from '../base/extpath.js';

// `<home>/origins.json`: library folder name → where the user's copy came from (issue 12, full
// provenance). Written after each import or adopt; read by the skill drawer. A skill added from a
// published source keeps its own record in src/sources (commit, ref); this file holds what the
// user picked or dropped, in their words.

const FileSchema = z.object({ skills: z.record(z.string(), ImportOriginSchema) });
type OriginsFile = z.infer<typeof FileSchema>;

const CHANGED = new Set(['imported', 'replaced', 'kept-both']);
const ARCHIVE = /\.(zip|skill)$/i;
/** A browser drop's batch folder: `<home>/uploads/b-<ms>-<hex>/`, the dropped names below it. */
const UPLOAD_BATCH = /^b-\d{13}-[0-9a-f]{16}$/;

function store(ctx: ServiceContext) {
  return openStore<OriginsFile>(ctx, 'origins.json', { schema: FileSchema, version: 1, defaults: () => ({ skills: {} }) });
}

/**
 * An import result's `source` as the user knows it: a folder, `<archive>` or `<archive>!/<member>`;
 * a browser drop loses its staging prefix. Null for SkillDock's own scratch copies (a source checkout).
 */
export function originOf(home: string, source: string, mode: LibraryMode, op: string): Omit<ImportOrigin, 'time'> | null {
  const bang = source.indexOf('!/');
  const outer = bang >= 0 ? source.slice(0, bang) : source;
  const member = bang >= 0 ? source.slice(bang + 2) : undefined;
  const kind = op === 'adopt' ? 'adopted' : bang >= 0 || ARCHIVE.test(outer) ? 'archive' : 'folder';
  const uploads = path.join(home, 'uploads');
  if (isInside(outer, uploads)) {
    const [batch, ...rest] = path.relative(uploads, outer).split(path.sep);
    if (!batch || !UPLOAD_BATCH.test(batch) || rest.length === 0) return null;
    return { kind, from: rest.join('/'), dropped: true, mode, ...(member ? { member } : {}) };
  }
  if (isInside(outer, home)) return null; // staging (a source checkout): the source record says where from
  return { kind, from: outer, dropped: false, mode, ...(member ? { member } : {}) };
}

/** Remember where each skill an import put in the library came from (and forget stale records). */
export function recordOrigins(ctx: ServiceContext, results: readonly ImportResult[], op: string, journalId?: string): void {
  const changed = results.filter((r) => CHANGED.has(r.status) && r.libraryName);
  if (changed.length === 0) return;
  const time = new Date().toISOString();
  // The import itself is done and journaled: a record that cannot be written costs the drawer a
  // line, never the import.
  try {
    write();
  } catch {
    // origins.json unwritable: the skill shows no import origin
  }
  function write() {
    store(ctx).update((file) => {
      for (const r of changed) {
        const origin = originOf(ctx.paths.home, r.source, r.linkTarget ? 'link' : 'copy', op);
        if (origin) file.skills[r.libraryName!] = { ...origin, time, ...(journalId ? { journalId } : {}) };
        else delete file.skills[r.libraryName!];
      }
      return file;
    });
  }
}

/** Where a library skill came from: the import record (unless that import was undone) and its source record. */
export function skillOrigins(ctx: ServiceContext, name: string, source: SkillOrigins['source']): SkillOrigins {
  let imported: ImportOrigin | null = store(ctx).read().skills[name] ?? null;
  if (imported?.journalId) {
    const id = imported.journalId;
    if (readJournal(ctx).some((e) => e.op === 'undo' && e.undoes === id)) imported = null;
  }
  return { name, imported, source };
}
