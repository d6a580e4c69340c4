// English templates of skills from sources (src/sources/): add, check, update.
// Placeholders are i18next's `{{name}}`.

export const SOURCES_MESSAGES = {
  'sources.bad-source': '"{{source}}" is not a skill source SkillDock can read: {{reason}}',
  'sources.bad-ref': 'The ref "{{ref}}" given for {{source}} is not a valid branch, tag or commit name.',
  'sources.reason.empty': 'it is empty.',
  'sources.reason.whitespace': 'it contains spaces or control characters.',
  'sources.reason.dash': 'it starts with "-".',
  'sources.reason.path': 'the path inside the repository contains "..", ".", an empty part, a backslash or control characters.',
  'sources.reason.github-path': 'a GitHub URL names owner/repo, or owner/repo/tree/<ref>/<path>.',
  'sources.reason.no-repo': 'it names no repository.',
  'sources.reason.url': 'it is not a valid URL.',
  'sources.reason.scheme': 'only https, http, ssh, git and file URLs are supported.',
  'sources.reason.unknown': 'give a git URL, owner/repo, a tree URL, a local repository path or an archive URL.',
} as const;
