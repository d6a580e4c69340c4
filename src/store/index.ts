import path from 'node:path';
import type { ServiceContext } from '../service-context.js';
import { JsonStore, type JsonStoreOptions } from './json-store.js';

export { JsonStore, writeFileAtomic, type JsonStoreOptions } from './json-store.js';
export { FileLock } from './file-lock.js';

/**
 * A store for `<home>/<fileName>` that reports corruption on the engine's event bus
 * (`store-corrupt`), so every front door can tell the user.
 */
export function openStore<T>(ctx: ServiceContext, fileName: string, opts: Omit<JsonStoreOptions<T>, 'file' | 'events'>): JsonStore<T> {
  return new JsonStore<T>({ ...opts, file: path.join(ctx.paths.home, fileName), events: ctx.events });
}
