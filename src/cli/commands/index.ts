import type { CliCommand } from '../types.js';

// Each command lives in its own file; add one import and one entry per command.
export const commands: CliCommand[] = [];
