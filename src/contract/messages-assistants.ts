// English templates of assistant errors (src/assistants/service.ts, resolve.ts).
// Placeholders are i18next's `{{name}}`.

export const ASSISTANT_MESSAGES = {
  'assistants.none': 'none',
  'assistants.not-attached-one': 'Skill not attached to "{{assistant}}": {{skills}} (attached: {{attached}})',
  'assistants.not-attached-many': 'Skills not attached to "{{assistant}}": {{skills}} (attached: {{attached}})',
  'assistants.builtin-readonly': '"{{name}}" is a built-in starter and cannot be changed; duplicate it to get an editable copy',
  'assistants.deleted-meanwhile': 'The assistant was deleted meanwhile ({{id}})',
  'assistants.name-taken': 'There is already an assistant named "{{name}}" (names are case-insensitive)',
  'assistants.name-taken-starter': 'There is already a built-in starter named "{{name}}" (names are case-insensitive)',
  'assistants.unknown-agent': 'Unknown agent "{{agent}}"; known agents: {{known}}',
  'assistants.ambiguous-name': 'More than one assistant is named "{{name}}"; use its id ({{ids}})',
  'assistants.unknown': 'Unknown assistant "{{ref}}"; assistants: {{names}}',
  'assistants.unknown-no-list': 'Unknown assistant "{{ref}}"',
  'assistants.nothing-attached': 'Nothing attached: {{reasons}}',
  'assistants.unknown-skill': 'unknown skill: {{skills}} (not in any skill root)',
  'assistants.unknown-skills': 'unknown skills: {{skills}} (not in any skill root)',
  'assistants.wrong-root': '"{{name}}" is not in root {{root}} (found in {{found}})',
} as const satisfies Record<string, string>;
