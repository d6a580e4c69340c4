import type { Api } from '../contract/index.js';
import type { ServiceContext } from '../service-context.js';
import { getSources } from './service.js';
import { recordLockOrigins } from './lock.js';
import { pinMany, registerPinUndo } from './pin.js';

type Contract = typeof import('../contract/sources.js');
type Keys = keyof Contract['sourcesMethods'] | keyof Contract['sourcesUpdateMethods'] | keyof Contract['sourcesShareMethods'];

export function sourcesHandlers(ctx: ServiceContext): Pick<Api, Keys> {
  const s = () => getSources(ctx);
  // Undo must know pin and unpin in every process, not only once sources were used.
  registerPinUndo(ctx);
  return {
    addFromSource: (input) => s().add(input),
    checkSources: (input) => s().check(input.names),
    listProvenance: async () => ({ skills: s().listProvenance() }),
    updateSkills: (input) => s().update(input),
    pinSkill: async (input) => s().pin(input.name, input.ref),
    unpinSkill: async (input) => s().unpin(input.name),
    pinSkills: (input) => pinMany(ctx, input, (url, ref) => s().parse(url, ref)),
    exportAssistant: (input) => s().exportAssistant(input.assistant, input.out),
    importAssistant: (input) => s().importAssistant(input),
  };
}

/**
 * Import and adopt as the library does them, then give each skill that the reference `skills` CLI
 * installed (its lock file says so) the source recorded there, so it can be checked and updated.
 */
export function lockAwareImports(
  ctx: ServiceContext,
  library: Pick<Api, 'importPaths' | 'adoptSkills'>,
): Pick<Api, 'importPaths' | 'adoptSkills'> {
  const withOrigins = async <T extends Parameters<typeof recordLockOrigins>[1]>(summary: Promise<T>): Promise<T> => {
    const s = await summary;
    recordLockOrigins(ctx, s, (source, ref) => getSources(ctx).parse(source, ref));
    return s;
  };
  return {
    importPaths: (input) => withOrigins(library.importPaths(input)),
    adoptSkills: (input) => withOrigins(library.adoptSkills(input)),
  };
}
