import { create } from 'zustand';
import type { MethodOutput, ProjectPlan } from '../../../src/contract/index';
import { client } from '../client-port';

/**
 * The Project page's view (issue 26 item 5): the plan the engine made for a folder, skills and
 * agents, and what the last apply wrote. The engine plans and writes; this holds the last answer.
 */
export interface ProjectChoice {
  project: string;
  skills: string[];
  agents: string[];
}

interface ProjectState {
  plan: ProjectPlan | null;
  /** The choice the plan was made for (an apply sends exactly it, with the plan's digest). */
  planned: ProjectChoice | null;
  applied: MethodOutput<'applyProjectDeploy'> | null;
  busy: boolean;
  /** Whatever the last call threw (worded by the page). */
  error: unknown;
  preview(choice: ProjectChoice): Promise<void>;
  apply(): Promise<void>;
  /** The choice changed: the plan shown no longer describes it. */
  reset(): void;
  /** `install` of the project from its skills-lock.json: first what it would do (`preview`), then done. */
  install: MethodOutput<'installProject'> | null;
  installError: unknown;
  installing: boolean;
  runInstall(project: string, preview: boolean): Promise<void>;
}

export const useProject = create<ProjectState>((set, get) => ({
  plan: null,
  planned: null,
  applied: null,
  busy: false,
  error: null,
  async preview(choice) {
    set({ busy: true, error: null, applied: null });
    try {
      const plan = await client().api.planProjectDeploy(choice);
      set({ plan, planned: choice });
    } catch (err) {
      set({ plan: null, planned: null, error: err });
    } finally {
      set({ busy: false });
    }
  },
  async apply() {
    const { plan, planned } = get();
    if (!plan || !planned) return;
    set({ busy: true, error: null });
    try {
      const applied = await client().api.applyProjectDeploy({ ...planned, digest: plan.digest });
      // What is on disk now: the same choice planned again shows every skill present.
      const again = await client().api.planProjectDeploy(planned);
      set({ applied, plan: again });
    } catch (err) {
      set({ error: err });
    } finally {
      set({ busy: false });
    }
  },
  reset() {
    set({ plan: null, planned: null, applied: null, error: null, install: null, installError: null });
  },
  install: null,
  installError: null,
  installing: false,
  async runInstall(project, preview) {
    set({ installing: true, installError: null });
    try {
      set({ install: await client().api.installProject({ project, preview }) });
    } catch (err) {
      set({ install: null, installError: err });
    } finally {
      set({ installing: false });
    }
  },
}));
