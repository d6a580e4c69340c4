// The catalog domain: roots, discovery, precedence, activation, watch, per-agent views, lint of paths.
export { CatalogService, getCatalog, type CatalogOptions } from './catalog.js';
export { computeRoots, registryRootId, locate } from './roots.js';
export { buildAgentView } from './agent-view.js';
export type { AnalyzeFn } from './entries.js';
