import { create } from 'zustand';
import type { i18n as I18n } from 'i18next';
import type { AgentInfo, AgentView, VerifyResult } from '../../../src/contract/index';
import { client } from '../client-port';
import { errorText } from './errors';

interface AgentsState {
  /** The registry (shipped + custom agents), for selects and labels, names in the UI's language. */
  agents: AgentInfo[];
  /** The registry as the engine gave it. */
  registry: AgentInfo[];
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
  /** "Check with the real agent" per agent: running, its result, or why it could not run. */
  checks: Record<string, { running: boolean; result?: VerifyResult; error?: string }>;
  verify(agent: string): Promise<void>;
}

let words: I18n | null = null;

/**
 * A shipped agent whose registry name is a phrase, not a product name ("Any other agent
 * (.agents/skills)"), is named from the locale files (`agentNames.<id>`); custom agents keep the
 * name their user gave.
 */
function labelled(registry: AgentInfo[]): Pick<AgentsState, 'agents' | 'names'> {
  // Keys built from registry ids: looked up untyped, and only when the locale has them.
  const word = words ? (words.t as unknown as (key: string) => string) : null;
  const agents = registry.map((a) =>
    a.evidence !== 'custom' && word && words?.exists(`agentNames.${a.id}`) ? { ...a, name: word(`agentNames.${a.id}`) } : a,
  );
  return { agents, names: Object.fromEntries(agents.map((a) => [a.id, a.name])) };
}

/** The window's i18next (App sets it): agent names follow its language. */
export function setAgentLanguage(i18n: I18n): void {
  if (words === i18n) return;
  words = i18n;
  i18n.on('languageChanged', () => useAgents.setState((s) => labelled(s.registry)));
}

export const useAgents = create<AgentsState>((set) => ({
  agents: [],
  registry: [],
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
      set({ registry: agents, ...labelled(agents), registryError: null });
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
  checks: {},
  async verify(agent) {
    set((s) => ({ checks: { ...s.checks, [agent]: { running: true } } }));
    try {
      const project = useAgents.getState().project.trim();
      const result = await client().api.verifyAgent({ agent, ...(project ? { workspace: project } : {}) });
      set((s) => ({ checks: { ...s.checks, [agent]: { running: false, result } } }));
    } catch (err) {
      set((s) => ({ checks: { ...s.checks, [agent]: { running: false, error: errorText(err) } } }));
    }
  },
}));

function without<T>(rec: Record<string, T>, key: string): Record<string, T> {
  const out = { ...rec };
  delete out[key];
  return out;
}
