// The sync domain's public surface (issue 31): the user's git remote as a mirror of the library.
export { getSync, type SyncResult } from './service.js';
