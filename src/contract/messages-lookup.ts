// English templates of the engine's lookup and path refusals: a skill, agent or file that is not
// there, a skill state dir or state URI that is refused (src/state/state-dirs.ts), a custom agent
// that cannot be used or removed, and why an approval diff shows no line diff. Placeholders are
// i18next's `{{name}}`; `{{known}}` is a list (joined with the language's list separator).

export const LOOKUP_MESSAGES = {
  'state.invalid-id': 'Invalid state id "{{id}}"',
  'state.id-escapes': 'State id "{{id}}" escapes skills-state',
  'state.dir-not-plain': 'State dir {{path}} is not a plain directory',
  'state.not-uri': 'Not a state URI (expected {{prefix}}<id>/<path>): {{uri}}',
  'state.bad-escape': 'Bad escape in state URI: {{uri}}',
  'state.uri-leaves': 'State URI leaves its state dir: {{uri}}',
  'state.uri-link-outside': 'State URI resolves outside its state dir through a link: {{uri}}',
  'path.missing': 'No such file or directory: {{path}}',
  'path.not-skill': 'Not a skill folder or SKILL.md: {{path}}',
  'skill-ref.no-skill-file': '{{path}} has no SKILL.md',
  'skill-ref.empty': 'Give a skill name or a directory',
  'catalog.no-skill': 'No skill named "{{name}}" in the catalog.',
  'catalog.unknown-agent': 'Unknown agent "{{agent}}"; agents: {{known}}',
  'custom-agent.unusable': 'Custom agent "{{agent}}" in settings.json cannot be used: {{problem}}. Fix or remove it in Settings.',
  'custom-agent.builtin-not-removable': '"{{agent}}" is a built-in agent and cannot be removed; only custom agents can',
  'custom-agent.not-found': 'No custom agent "{{agent}}"; custom agents: {{known}}',
  'custom-agent.not-found-none': 'No custom agent "{{agent}}"; there are no custom agents',
  'security.diff-note.binary': 'binary file',
  'security.diff-note.not-kept': 'the approved version was not kept (too large), so no line diff',
  'security.diff-note.too-large': 'too large to compare',
} as const satisfies Record<string, string>;
