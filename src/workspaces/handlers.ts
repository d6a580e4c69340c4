import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getWorkspaces } from './service.js';

type Keys = keyof typeof import('../contract/launch.js').launchMethods;

export function launchHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const ws = () => getWorkspaces(ctx);
  return {
    listAgents: async () => ws().agentInfos(),
    launchAssistant: async (input) => ws().launch(input),
    openInTerminal: async ({ conversationId }) => ws().openInTerminal(conversationId),
    listWorkspaces: async () => ws().list(),
    cleanWorkspaces: async (input) => ws().clean(input),
    resolveStateUri: async ({ uri }) => ws().resolveStateUri(uri),
    checkWrite: async (input) => ws().checkWrite(input),
  };
}
