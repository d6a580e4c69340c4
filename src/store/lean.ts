// The store's quick path for the CLI's lean start (src/cli/lean.ts): schema checks without zod loaded.
export { schemaMisses, useValidationMemo } from './lazy-schema.js';
