// The workspaces domain's public surface for the front doors (main/, src/cli): they import from here,
// never from the files behind it (scripts/check-imports.mjs, ESLint skilldock/front-door-imports).
export { getWorkspaces } from './service.js';
export { markExited, writePid } from './in-use.js';
export { APP_CLI_FLAG, APP_EXECUTABLE_ENV } from './write-guard.js';
export { formatAge, parseDuration } from './cleanup.js';
