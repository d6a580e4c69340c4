import { client } from '../client-port';
import { errorText } from './errors';
import { SKILL_FILE, type EditorChecks, type EditorState, type GetEditor, type SetEditor } from './editor-state';

type PathActions = Pick<EditorState, 'createFile' | 'createFolder' | 'movePath'>;

/** The skill's file tree: new files and folders, renames and deletes, with the open buffers following. */
export function editorPaths(set: SetEditor, get: GetEditor, checks: EditorChecks): PathActions {
  return {
    async createFile(path) {
      const { skill } = get();
      if (!skill) return;
      set({ saveError: null });
      try {
        await client().api.saveSkillFile({ skill, path, content: '', expectedHash: null });
        await get().refreshFiles();
        await get().openFile(path);
      } catch (err) {
        set({ saveError: errorText(err) });
      }
    },
    async createFolder(path) {
      const { skill } = get();
      if (!skill) return;
      set({ saveError: null });
      try {
        await client().api.createSkillFolder({ skill, path });
        await get().refreshFiles();
      } catch (err) {
        set({ saveError: errorText(err) });
      }
    },
    async movePath(from, to) {
      const { skill } = get();
      if (!skill) return false;
      set({ saveError: null });
      try {
        if (to === null) await client().api.deleteSkillPath({ skill, path: from });
        else await client().api.renameSkillPath({ skill, from, to });
      } catch (err) {
        set({ saveError: errorText(err) });
        return false;
      }
      const under = (p: string) => p === from || p.startsWith(`${from}/`);
      set((s) => ({
        open: Object.fromEntries(Object.entries(s.open).filter(([p]) => !under(p))),
        // a renamed file stays open under its new name; a deleted one gives way to SKILL.md
        current: !under(s.current) ? s.current : to === null ? SKILL_FILE : to + s.current.slice(from.length),
      }));
      await get().refreshFiles();
      if (!get().open[get().current]) await get().openFile(get().current);
      checks.scheduleLint(0);
      return true;
    },
  };
}
