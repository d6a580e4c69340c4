// English templates of the data-file store's errors (src/store/json-store.ts, file-lock.ts).
// Placeholders are i18next's `{{name}}`.

export const STORE_MESSAGES = {
  'store.read-failed': 'Cannot read {{file}} ({{errno}})',
  'store.newer-version':
    '{{file}} has schema version {{version}}, newer than this SkillDock understands ({{supported}}). Update SkillDock.',
  'store.busy-here': '{{file}} is busy in this process; try again',
  'store.locked-by': 'Locked by process {{pid}}; try again (lock file {{file}})',
  'store.locked': 'Locked by another process; try again (lock file {{file}})',
} as const satisfies Record<string, string>;
