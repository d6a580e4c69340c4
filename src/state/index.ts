// The state domain's public surface for the front doors (main/, src/cli).
export { listStateDirs } from './state-dirs.js';
