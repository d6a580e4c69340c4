// English templates of settings refusals: custom agents (src/settings/custom-agents.ts) and their
// workspace paths (src/agents/workspace-path.ts). Placeholders are i18next's `{{name}}`.

export const SETTINGS_MESSAGES = {
  'custom-agent.refused': 'Custom agent "{{agent}}": {{why}}',
  'custom-agent.no-id': '(no id)',
  'custom-agent.id-taken': 'id "{{id}}" is already used by another custom agent',
  'custom-agent.id-format': 'id "{{id}}" must be 1-32 characters of a-z, 0-9 and -, starting with a letter or digit',
  'custom-agent.id-builtin': 'id "{{id}}" belongs to a built-in agent; choose another (built-in: {{builtin}})',
  'custom-agent.name-empty': 'name is empty',
  'custom-agent.command-empty': 'command is empty',
  'custom-agent.path': '{{field}} "{{value}}" {{problem}}',
  'custom-agent.git-dir': 'skillsDir "{{value}}" is inside .git, whose hooks run code; choose a folder of its own',
  'custom-agent.agent-folder': 'skillsDir "{{value}}" is {{folder}}, where an agent keeps its own settings; choose a folder of its own',
  'custom-agent.agent-config':
    '{{field}} "{{value}}" is or holds {{path}}, which an agent reads as its own settings, hooks or config: a launch would overwrite it; choose another path',
  'custom-agent.overlap': 'contextFile "{{contextFile}}" and skillsDir "{{skillsDir}}" must not be the same path or one inside the other',
  'workspace-path.empty': 'is empty',
  'workspace-path.too-long': 'is longer than {{max}} characters',
  'workspace-path.control-char': 'contains a control character',
  'workspace-path.backslash': 'must use / between folders, not \\',
  'workspace-path.absolute': 'must be relative to the workspace, not an absolute path',
  'workspace-path.drive': 'must not start with a drive like C:',
  'workspace-path.colon': 'must not contain ":"',
  'workspace-path.home': 'must not start with ~ (it is relative to the workspace, not the home folder)',
  'workspace-path.empty-segment': 'must not have empty segments (a leading, trailing or doubled /)',
  'workspace-path.parent': 'must not contain ".." (it has to stay inside the workspace)',
  'workspace-path.dot-segment': 'must not contain "." segments (write it without ./)',
  'workspace-path.trailing-dot-or-space': 'must not have a segment ending in a dot or space ("{{segment}}")',
} as const satisfies Record<string, string>;
