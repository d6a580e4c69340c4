import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getAssistants } from './service.js';

type Keys = keyof typeof import('../contract/assistants.js').assistantsMethods;

export function assistantsHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  // Resolved on first call, not here: building the service touches settings and the catalog.
  const svc = () => getAssistants(ctx);
  return {
    listAssistants: async () => svc().list(),
    getAssistant: async ({ assistant, project }) => svc().view(assistant, { project }),
    createAssistant: async (input) => svc().create(input),
    updateAssistant: async (input) => svc().update(input),
    attachSkills: async (input) => svc().attach(input),
    detachSkills: async (input) => svc().detach(input),
    duplicateAssistant: async (input) => svc().duplicate(input),
    deleteAssistant: async (input) => svc().delete(input),
  };
}
