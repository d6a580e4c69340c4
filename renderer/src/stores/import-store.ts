import { create } from 'zustand';
import type { ConflictChoice, ImportResult, ImportSummary, MessageRef } from '../../../src/contract/index';
import { importOp, operationWhat } from '../../../src/contract/operation-what';
import { client, type DroppedItem } from '../client-port';
import { errorText } from './errors';

export interface Progress {
  /** `upload`: files going to the server's staging dir (browser); `import`: the engine copying. */
  phase: 'upload' | 'import';
  skillsDone: number;
  skillsTotal: number;
  bytesDone: number;
  bytesTotal: number;
  current?: string;
}

/** What to run again once every conflict has an answer. */
type Source =
  | { kind: 'paths'; paths: string[] }
  | { kind: 'upload'; items: DroppedItem[] }
  /** Skills chosen in the "Add from source" dialog (issue 15): a git source, its ref and the skill folders. */
  | { kind: 'source'; source: string; ref?: string; skills: string[] };

interface ImportState {
  importId: string | null;
  progress: Progress | null;
  summary: ImportSummary | null;
  error: string | null;
  /** Conflicts still waiting for the user's choice, first one is in the dialog. */
  pending: ImportResult[];
  choices: Record<string, ConflictChoice>;
  source: Source | null;
  /** The last operation that changed disk, by journal id and in a few words: the toast undoes it. */
  lastOp: LastOp | null;
  importPaths(paths: string[]): Promise<void>;
  importUpload(items: DroppedItem[]): Promise<void>;
  /** Install skills found in a source: same summary, conflict questions and undo toast as an import. */
  addFromSource(source: string, ref: string | undefined, skills: string[]): Promise<void>;
  choose(choice: ConflictChoice): Promise<void>;
  onProgress(event: Omit<Progress, 'phase'> & { importId: string }): void;
  dismiss(): void;
  /** Another change the journal does not record happened: the undo toast would now mislead. */
  forgetUndo(): void;
}

export interface LastOp {
  id: string;
  what: MessageRef;
}

/** An import's operation named as the engine names it: "import of 5 skills", "replacement of pdf". */
function importedOp(summary: ImportSummary, id: string): LastOp {
  const changed = summary.results.filter((r) => ['imported', 'replaced', 'kept-both'].includes(r.status));
  const op = importOp(
    changed.map((r) => r.status),
    'import',
  );
  return { id, what: operationWhat({ op, skills: changed.map((r) => r.libraryName ?? r.name ?? '') }) };
}

let seq = 0;
const newId = () => `imp-${Date.now().toString(36)}-${(seq++).toString(36)}`;

async function run(source: Source, importId: string, resolutions?: Record<string, ConflictChoice>): Promise<ImportSummary> {
  const c = client();
  if (source.kind === 'paths') return c.api.importPaths({ paths: source.paths, importId, resolutions });
  if (source.kind === 'source') {
    const { summary } = await c.api.addFromSource({
      source: source.source,
      ...(source.ref ? { ref: source.ref } : {}),
      skills: source.skills,
      ...(resolutions ? { resolutions } : {}),
    });
    if (!summary) throw new Error('addFromSource returned no summary');
    return summary;
  }
  if (!c.upload) throw new Error('upload is not available in this window');
  return c.upload(source.items, {
    importId,
    resolutions,
    onProgress: (p) =>
      useImport.setState((st) =>
        st.importId === importId
          ? {
              progress: {
                phase: 'upload',
                skillsDone: p.filesDone,
                skillsTotal: p.filesTotal,
                bytesDone: p.bytesDone,
                bytesTotal: p.bytesTotal,
              },
            }
          : {},
      ),
  });
}

export const useImport = create<ImportState>((set, get) => {
  async function start(source: Source, resolutions?: Record<string, ConflictChoice>) {
    const importId = newId();
    set({ importId, progress: null, error: null, source, ...(resolutions ? {} : { summary: null, choices: {} }) });
    try {
      const summary = await run(source, importId, resolutions);
      // Conflicts are asked one by one, then the same sources run once more with every answer.
      const pending = resolutions ? [] : summary.results.filter((r) => r.status === 'conflict');
      set({
        summary,
        pending,
        importId: null,
        progress: null,
        lastOp: summary.journalId ? importedOp(summary, summary.journalId) : get().lastOp,
      });
    } catch (err) {
      set({ error: errorText(err), importId: null, progress: null });
    }
  }
  return {
    importId: null,
    progress: null,
    summary: null,
    error: null,
    pending: [],
    choices: {},
    source: null,
    lastOp: null,
    forgetUndo: () => set({ lastOp: null }),
    importPaths: (paths) => start({ kind: 'paths', paths }),
    importUpload: (items) => start({ kind: 'upload', items }),
    addFromSource: (source, ref, skills) => start({ kind: 'source', source, ...(ref ? { ref } : {}), skills }),
    async choose(choice) {
      const [current, ...rest] = get().pending;
      if (!current) return;
      const choices = { ...get().choices, [current.name ?? current.source]: choice };
      set({ pending: rest, choices });
      const source = get().source;
      if (rest.length === 0 && source) {
        // Dropped in the browser, the server keeps the uploaded copy until the import is answered:
        // the round trip lets it go even when every answer is skip.
        if (source.kind !== 'upload' && Object.values(choices).every((c) => c === 'skip')) {
          // Nothing to write: mark the conflicts skipped locally instead of a no-op round trip.
          const summary = get().summary;
          if (summary)
            set({
              summary: {
                ...summary,
                results: summary.results.map((r) => (r.status === 'conflict' ? { ...r, status: 'skipped' } : r)),
                conflicts: 0,
              },
            });
          return;
        }
        await start(source, choices);
      }
    },
    onProgress(event) {
      if (event.importId !== get().importId) return;
      const { importId: _id, ...progress } = event;
      void _id;
      set({ progress: { ...progress, phase: 'import' } });
    },
    dismiss() {
      set({ summary: null, error: null, pending: [], choices: {} });
    },
  };
});

export function countByStatus(summary: ImportSummary): Record<ImportResult['status'], number> {
  const counts = { imported: 0, 'already-present': 0, replaced: 0, 'kept-both': 0, skipped: 0, conflict: 0, refused: 0 };
  for (const r of summary.results) counts[r.status]++;
  return counts;
}
