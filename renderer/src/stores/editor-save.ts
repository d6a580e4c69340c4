import { client } from '../client-port';
import { errorCode, errorText } from './errors';
import { SKILL_FILE, type EditorChecks, type EditorState, type GetEditor, type SetEditor } from './editor-state';

type SaveActions = Pick<EditorState, 'save' | 'reloadFromDisk' | 'showDiff' | 'dismissConflict'>;

/** Saving the open file, and the conflict when it changed on disk since it was read. */
export function editorSave(set: SetEditor, get: GetEditor, checks: EditorChecks): SaveActions {
  return {
    async save(overwriteHash) {
      const { skill, current, open } = get();
      const f = open[current];
      if (!skill || !f || f.readOnly) return false;
      set({ saving: true, saveError: null });
      const mine = f.buffer;
      try {
        const out = await client().api.saveSkillFile({
          skill,
          path: current,
          content: mine,
          expectedHash: overwriteHash !== undefined ? overwriteHash : f.hash,
        });
        set((s) => ({
          saving: false,
          conflict: null,
          needsApproval: out.needsApproval,
          open: { ...s.open, [current]: { ...s.open[current], disk: mine, hash: out.hash } },
          // a save that changed nothing has no journal entry, so nothing for Undo to revert
          saves: out.journalId ? { ...s.saves, [current]: [...(s.saves[current] ?? []), out.journalId] } : s.saves,
        }));
        void get().refreshFiles();
        checks.scheduleLint(0);
        return true;
      } catch (err) {
        const details = (err as { details?: { currentHash?: string | null; currentContent?: string | null } }).details;
        if (errorCode(err) === 'conflict' && details && 'currentHash' in details) {
          set({
            saving: false,
            conflict: {
              path: current,
              currentHash: details.currentHash ?? null,
              currentContent: details.currentContent ?? null,
              mine,
              showDiff: false,
            },
          });
        } else set({ saving: false, saveError: errorText(err) });
        return false;
      }
    },
    reloadFromDisk() {
      const c = get().conflict;
      if (!c) return;
      set((s) => {
        const f = s.open[c.path];
        const text = c.currentContent ?? '';
        return {
          conflict: null,
          open: { ...s.open, [c.path]: { ...f, disk: text, hash: c.currentHash ?? '', buffer: text, rev: f.rev + 1 } },
        };
      });
      if (c.path === SKILL_FILE) checks.scheduleLint(0);
    },
    showDiff(show) {
      set((s) => (s.conflict ? { conflict: { ...s.conflict, showDiff: show } } : {}));
    },
    dismissConflict() {
      set({ conflict: null });
    },
  };
}
