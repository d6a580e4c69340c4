// The usage domain's public surface for the front doors (the CLI's hook).
export { recordHook } from './hook.js';
