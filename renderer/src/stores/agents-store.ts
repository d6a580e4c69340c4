import { create } from 'zustand';
import type { AgentInfo, AgentView } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

interface AgentsState {
  /** The registry (shipped + custom agents), for selects and labels. */
  agents: AgentInfo[];
  names: Record<string, string>;
  views: Record<string, AgentView>;
  errors: Record<string, string>;
  registryError: string | null;
  /** Project dir whose project roots join the views ('' = none). */
  project: string;
  setProject(project: string): void;
  loadRegistry(): Promise<void>;
  loadView(agent: string): Promise<void>;
  /** Views go stale when the catalog changes; the next reader reloads them. */
  invalidateViews(): void;
}

export const useAgents = create<AgentsState>((set) => ({
  agents: [],
  names: {},
  views: {},
  errors: {},
  registryError: null,
  project: '',
  setProject(project) {
    set({ project, views: {}, errors: {} });
  },
  async loadRegistry() {
    try {
      const agents = await client().api.listAgents({});
      set({ agents, names: Object.fromEntries(agents.map((a) => [a.id, a.name])), registryError: null });
    } catch (err) {
      set({ registryError: errorText(err) });
    }
  },
  async loadView(agent) {
    try {
      const project = useAgents.getState().project.trim();
      const view = await client().api.agentView({ agent, project: project || undefined });
      set((s) => ({ views: { ...s.views, [agent]: view }, errors: without(s.errors, agent) }));
    } catch (err) {
      set((s) => ({ errors: { ...s.errors, [agent]: errorText(err) } }));
    }
  },
  invalidateViews() {
    set({ views: {} });
  },
}));

function without<T>(rec: Record<string, T>, key: string): Record<string, T> {
  const out = { ...rec };
  delete out[key];
  return out;
}
