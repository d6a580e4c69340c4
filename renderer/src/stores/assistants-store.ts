import { create } from 'zustand';
import type {
  AttachResult,
  Assistant,
  AssistantView,
  ConflictChoice,
  CreateAssistantInput,
  MethodOutput,
  SkillPick,
  UpdateAssistantInput,
} from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';
import { useImport } from './import-store';

interface AssistantsState {
  list: Assistant[];
  loaded: boolean;
  error: string | null;
  selectedId: string | null;
  /** Resolved view (missing/changed flags) of the selected assistant. */
  view: AssistantView | null;
  load(): Promise<void>;
  select(id: string | null): Promise<void>;
  refreshView(): Promise<void>;
  create(input: CreateAssistantInput): Promise<AssistantView | null>;
  update(input: Omit<UpdateAssistantInput, 'assistant'>): Promise<boolean>;
  /**
   * The error (with its `details`) is returned so the picker can offer to approve a skill. Skills the
   * engine kept back while attaching the others (waiting for an approval) come back as `waiting`.
   */
  attach(skills: SkillPick[]): Promise<{ ok: true; waiting: NonNullable<AttachResult['waiting']> } | { ok: false; error: unknown }>;
  detach(skillName: string): Promise<boolean>;
  /** `name`: the copy's name in the user's language (copyNameIn); the engine's English default otherwise. */
  duplicate(id: string, name?: string): Promise<AssistantView | null>;
  remove(id: string): Promise<boolean>;
  clearError(): void;
  /** The assistant as one shareable document (what `skilldock assistant export` writes). */
  exportDoc(id: string): Promise<unknown>;
  /**
   * Recreate an assistant from a shared document (missing skills added from their sources), then
   * show it. Throws what the engine refused; the caller words it.
   */
  /**
   * `name` imports under another name (the file's is taken: keep both). `allowEmpty`: create it
   * even when every skill it lists failed (the user said so).
   */
  importDoc(doc: unknown, onConflict?: ConflictChoice, name?: string, allowEmpty?: boolean): Promise<MethodOutput<'importAssistant'>>;
}

export const useAssistants = create<AssistantsState>((set, get) => {
  /** Write a returned view into both the list and the open editor. */
  const apply = (view: AssistantView) => {
    const asRef = toRef(view);
    set((s) => {
      const exists = s.list.some((a) => a.id === view.id);
      return {
        list: exists ? s.list.map((a) => (a.id === view.id ? asRef : a)) : [...s.list, asRef],
        view: s.selectedId === view.id ? view : s.view,
        error: null,
      };
    });
  };
  const guard = async <T>(fn: () => Promise<T>): Promise<T | null> => {
    try {
      return await fn();
    } catch (err) {
      set({ error: errorText(err) });
      return null;
    }
  };
  return {
    list: [],
    loaded: false,
    error: null,
    selectedId: null,
    view: null,
    async load() {
      const list = await guard(() => client().api.listAssistants({}));
      if (!list) return;
      set({ list, loaded: true, error: null });
      const { selectedId } = get();
      if (selectedId && !list.some((a) => a.id === selectedId)) set({ selectedId: null, view: null });
      else if (selectedId) await get().refreshView();
    },
    async select(id) {
      set({ selectedId: id, view: null });
      if (id) await get().refreshView();
    },
    async refreshView() {
      const id = get().selectedId;
      if (!id) return;
      const view = await guard(() => client().api.getAssistant({ assistant: id }));
      if (view && get().selectedId === id) set({ view });
    },
    async create(input) {
      const view = await guard(() => client().api.createAssistant(input));
      if (view) {
        set({ selectedId: view.id });
        apply(view);
        set({ view });
      }
      return view;
    },
    async update(input) {
      const id = get().selectedId;
      if (!id) return false;
      const view = await guard(() => client().api.updateAssistant({ assistant: id, ...input }));
      if (view) apply(view);
      return Boolean(view);
    },
    async attach(skills) {
      const id = get().selectedId;
      if (!id || skills.length === 0) return { ok: false, error: new Error('nothing to attach') };
      try {
        const result = await client().api.attachSkills({ assistant: id, skills });
        apply(result);
        return { ok: true, waiting: result.waiting ?? [] };
      } catch (error) {
        return { ok: false, error };
      }
    },
    async detach(skillName) {
      const id = get().selectedId;
      const before = get().view;
      if (!id || !before) return false;
      // The row disappears at once; the engine's answer then replaces the optimistic view.
      set({ view: { ...before, skills: before.skills.filter((s) => s.name !== skillName) } });
      const view = await guard(() => client().api.detachSkills({ assistant: id, skills: [skillName] }));
      if (view) apply(view);
      else if (get().selectedId === id) set({ view: before });
      return Boolean(view);
    },
    async duplicate(id, name) {
      const view = await guard(() => client().api.duplicateAssistant({ assistant: id, ...(name ? { name } : {}) }));
      if (view) {
        set({ selectedId: view.id });
        apply(view);
        set({ view });
      }
      return view;
    },
    async remove(id) {
      const res = await guard(() => client().api.deleteAssistant({ assistant: id }));
      if (!res) return false;
      // Undo reverts the last journaled change (an import), not this delete: do not offer it now.
      useImport.getState().forgetUndo();
      set((s) => ({
        list: s.list.filter((a) => a.id !== id),
        selectedId: s.selectedId === id ? null : s.selectedId,
        view: s.selectedId === id ? null : s.view,
      }));
      return true;
    },
    clearError() {
      set({ error: null });
    },
    async exportDoc(id) {
      return (await client().api.exportAssistant({ assistant: id })).data;
    },
    async importDoc(doc, onConflict, name, allowEmpty) {
      const out = await client().api.importAssistant({
        data: doc,
        ...(onConflict ? { onConflict } : {}),
        ...(name ? { name } : {}),
        ...(allowEmpty ? { allowEmpty: true } : {}),
      });
      await get().load();
      if (out.assistantId) await get().select(out.assistantId);
      return out;
    },
  };
});

function toRef(v: AssistantView): Assistant {
  return {
    id: v.id,
    name: v.name,
    agent: v.agent,
    rules: v.rules,
    defaultWorkspace: v.defaultWorkspace,
    builtin: v.builtin,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    skills: v.skills.map((s) => ({
      name: s.name,
      rootId: s.rootId,
      rootKind: s.rootKind,
      rootPath: s.rootPath,
      digest: s.digest,
      attachedAt: s.attachedAt,
    })),
  };
}
