import type { SkillDockEvent } from '../contract/index.js';
import { termEscape } from './format.js';

// What the CLI says about the engine's recoveries (the full CLI, and the MCP door's engine).

/** What the CLI says when the engine found a damaged data file and recovered from it. */
export function corruptWarning(e: Extract<SkillDockEvent, { type: 'store-corrupt' }>): string {
  const recovered =
    e.recoveredFrom === 'backup'
      ? `recovered from its backup ${e.file}.bak; changes made after that backup are lost`
      : 'no good backup: it starts empty, everything it held is in the damaged copy';
  return `skilldock: ${e.file} was damaged (${e.reason}); ${recovered}. The damaged file was moved to ${e.movedTo}.`;
}

/** Said at once: the command goes on with the library as it was before the crash. */
export function rolledBackWarning(e: Extract<SkillDockEvent, { type: 'operation-rolled-back' }>): string {
  return (
    `skilldock: an interrupted ${e.op} (begun ${e.time}) was found and rolled back: ${e.undone} change(s) undone` +
    (e.failed.length ? `; could not undo ${e.failed.map((f) => `${termEscape(f.path)} (${termEscape(f.reason)})`).join(', ')}` : '') +
    '.'
  );
}
