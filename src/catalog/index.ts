// The catalog domain: roots, discovery, precedence, activation, watch, per-agent views, lint of paths.
export { CatalogService, getCatalog } from './catalog.js';
export type { AnalyzeFn } from './entries.js';
