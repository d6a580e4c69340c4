// English of the sync domain's messages (`skilldock sync`, issue 31). Placeholders are i18next's.

export const SYNC_MESSAGES = {
  'sync.not-set-up': 'Sync is not set up. Run `skilldock sync setup <remote-url>` with a git repository you own.',
  'sync.already-set-up': 'Sync is already set up with {{url}}.',
  'sync.not-skilldock':
    'The repository {{url}} is not empty and is not a SkillDock sync repository (it has no SKILLDOCK-SYNC.json). Nothing was changed: use an empty repository, or the one another machine set up.',
  'sync.hostile':
    'The repository {{url}} holds "{{path}}", which SkillDock does not take ({{reason}}). Nothing was taken from it and nothing here was changed.',
  'sync.unrelated':
    "The history of {{url}} no longer contains this machine's last sync (it was rewritten, or it is another repository). Nothing was pushed. Run `skilldock sync --adopt` to merge both as they are now: every difference becomes a conflict you settle.",
  'sync.remote-busy':
    'The repository {{url}} kept changing while this machine pushed (another machine syncing). Nothing was lost: run the sync again.',
  'sync.no-conflict': 'No open sync conflict is about "{{unit}}".',
} as const satisfies Record<string, string>;
