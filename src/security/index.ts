// The security domain's public surface for the front doors (main/, src/cli).
export { toSarif } from './sarif.js';
