import fs from 'node:fs';
import type { JournalEntry } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { fail } from '../errors.js';
import { registerUndoHandler } from '../library/journal.js';
import { runJournaled } from '../library/recover.js';
import { selectNames, type Selection } from '../base/select.js';
import { libraryDir } from '../library/trash.js';
import { provenanceFile, readProvenance, writeProvenance } from './store.js';

// Pinning many skills from sources (or unpinning them) in one operation: one journal entry that
// holds each skill's pin before and after, one undo that puts every pin back.

export const JOURNAL_PIN = 'pin';
export const JOURNAL_UNPIN = 'unpin';

interface PinItem {
  skill: string;
  before: string | null;
  after: string | null;
}

/** Set each skill's pin as `pick` says (null: unpinned), in provenance.json, in one write. */
function setPins(ctx: ServiceContext, pins: ReadonlyArray<{ skill: string; pinned: string | null }>): void {
  const prov = readProvenance(ctx, libraryDir(ctx));
  const changed: Parameters<typeof writeProvenance>[1] = {};
  for (const { skill, pinned } of pins) {
    const p = prov[skill];
    if (!p) continue; // gone since (deleted): nothing to pin
    const { pinned: _drop, ...rest } = p;
    void _drop;
    changed[skill] = pinned === null ? rest : { ...rest, pinned };
  }
  writeProvenance(ctx, changed);
}

/**
 * Pin (or with `off`, unpin) the skills `sel` names among those added from sources. `ref` pins
 * them all to one ref (validated by `checkRef`); absent, each at its installed commit.
 */
export async function pinMany(
  ctx: ServiceContext,
  sel: Selection & { ref?: string; off?: boolean },
  checkRef: (url: string, ref: string) => void,
): Promise<{ results: Array<{ name: string; pinned: string | null }>; journalId?: string }> {
  const prov = readProvenance(ctx, libraryDir(ctx));
  const names = selectNames(Object.keys(prov).sort(), sel, 'library');
  const items: PinItem[] = names.map((name) => {
    const p = prov[name];
    if (!p) throw fail('not-found', 'sources.no-provenance', { skill: name });
    if (sel.off) return { skill: name, before: p.pinned ?? null, after: null };
    if (sel.ref && p.source.kind === 'archive')
      throw fail('bad-request', 'sources.archive-pin-ref', { skill: name, source: p.source.given });
    if (sel.ref) checkRef(p.source.url, sel.ref);
    return { skill: name, before: p.pinned ?? null, after: sel.ref ?? p.commit };
  });
  if (!items.length) return { results: [] };
  const op = sel.off ? JOURNAL_UNPIN : JOURNAL_PIN;
  const journalId = await runJournaled(ctx, op, (wal) => {
    const file = provenanceFile(ctx);
    wal.will({ kind: 'rewrote-file', path: file, content: fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null });
    setPins(
      ctx,
      items.map((it) => ({ skill: it.skill, pinned: it.after })),
    );
    const what = sel.off ? 'Unpinned' : 'Pinned';
    return wal.commit({
      op,
      summary: items.length === 1 ? `${what} ${items[0]!.skill}` : `${what} ${items.length} skills`,
      skills: items.map((it) => ({ name: it.skill })),
      items,
    }).id;
  });
  return { results: items.map((it) => ({ name: it.skill, pinned: it.after })), journalId };
}

/** Undo puts every pin of the entry back as it was; redo sets them again. */
export function registerPinUndo(ctx: ServiceContext): void {
  const items = (e: JournalEntry) => (Array.isArray(e.items) ? (e.items as PinItem[]) : []);
  for (const op of [JOURNAL_PIN, JOURNAL_UNPIN]) {
    registerUndoHandler(ctx, op, {
      undo: (entry) => {
        setPins(
          ctx,
          items(entry).map((it) => ({ skill: it.skill, pinned: it.before })),
        );
        return { message: `Put back the pins of ${items(entry).length} skill(s).` };
      },
      redo: (entry) => {
        setPins(
          ctx,
          items(entry).map((it) => ({ skill: it.skill, pinned: it.after })),
        );
        return { message: `Set the pins of ${items(entry).length} skill(s) again.` };
      },
    });
  }
}
