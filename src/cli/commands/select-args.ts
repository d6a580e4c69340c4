import { UsageError } from '../types.js';

// What the bulk commands (delete, restore, export, approve, pin) take: names, globs the engine
// matches against its own names (quote them: 'beta-*', so the shell passes them as they are), or
// --all. Never both, never neither.

export function selection(positionals: string[], all: boolean | undefined, what: string): { names: string[] } | { all: true } {
  if (all && positionals.length) throw new UsageError(`give ${what} names or --all, not both`);
  if (all) return { all: true };
  if (!positionals.length) throw new UsageError(`give at least one ${what} name or glob (quoted: 'beta-*'), or --all`);
  return { names: positionals };
}
