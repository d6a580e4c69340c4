import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getSources } from './service.js';

type Contract = typeof import('../contract/sources.js');
type Keys = keyof Contract['sourcesMethods'] | keyof Contract['sourcesUpdateMethods'] | keyof Contract['sourcesShareMethods'];

export function sourcesHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const s = () => getSources(ctx);
  return {
    addFromSource: (input) => s().add(input),
    checkSources: (input) => s().check(input.names),
    listProvenance: async () => ({ skills: s().listProvenance() }),
    updateSkills: (input) => s().update(input),
    pinSkill: async (input) => s().pin(input.name, input.ref),
    unpinSkill: async (input) => s().unpin(input.name),
    exportAssistant: (input) => s().exportAssistant(input.assistant, input.out),
    importAssistant: (input) => s().importAssistant(input),
  };
}
