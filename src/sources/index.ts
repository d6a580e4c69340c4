// The sources domain's public surface for the front doors (main/, src/cli).
export { isLocalPath } from './parse.js';
