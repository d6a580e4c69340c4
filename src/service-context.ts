import type { EnginePaths, EventBus } from './context.js';

/**
 * What every domain module gets. Domain services are created lazily and shared through `use`,
 * so a domain reaches another one with e.g. `getCatalog(ctx)` without a central wiring file.
 */
export interface ServiceContext {
  readonly paths: EnginePaths;
  readonly events: EventBus;
  use<T>(key: string, create: () => T): T;
  onClose(fn: () => void | Promise<void>): void;
  close(): Promise<void>;
}

export function createServiceContext(paths: EnginePaths, events: EventBus): ServiceContext {
  const instances = new Map<string, unknown>();
  const closers: Array<() => void | Promise<void>> = [];
  return {
    paths,
    events,
    use<T>(key: string, create: () => T): T {
      if (!instances.has(key)) instances.set(key, create());
      return instances.get(key) as T;
    },
    onClose(fn) {
      closers.push(fn);
    },
    async close() {
      for (const fn of closers.splice(0).reverse()) await fn();
    },
  };
}
