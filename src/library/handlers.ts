import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getLibrary } from './library-service.js';

type Keys = keyof typeof import('../contract/library.js').libraryMethods;

export function libraryHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const lib = () => getLibrary(ctx);
  return {
    importPaths: (input) => lib().importPaths(input),
    listLibrary: async () => ({ skills: await lib().list() }),
    listAdoptable: async (input) => ({ skills: await lib().listAdoptable(input.agent) }),
    adoptSkills: (input) => lib().adopt(input.items, input),
    deleteSkill: (input) => lib().delete(input.name),
    listTrash: async () => ({ items: lib().listTrash() }),
    restoreSkill: (input) => lib().restore(input.id, input.as),
    exportSkill: (input) => lib().export(input),
    deleteSkills: (input) => lib().deleteMany(input),
    restoreSkills: (input) => lib().restoreMany(input),
    exportSkills: (input) => lib().exportMany(input),
    undo: (input) => lib().undo(input.id),
    redo: (input) => lib().redo(input.id),
    journal: async (input) => lib().journal(input.limit),
    doctor: (input) => lib().doctor(input.repair === true),
  };
}
