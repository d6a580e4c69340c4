// What the CLI's lean `policy check-write --hook` needs from the agents domain (each agent's hook
// protocol), loadable without the registry or zod: the front doors' quick path into this domain.
export { GUARD_KINDS, hookDenyAnswer, isGuardKind, readHookInput, type GuardKind } from './hook-dialects.js';
