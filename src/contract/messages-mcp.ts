// English of the MCP front door's messages (`skilldock mcp`, issue 27). Placeholders are i18next's.

export const MCP_MESSAGES = {
  'mcp.withheld.unapproved':
    'The scripts of "{{skill}}" are not approved in SkillDock: they are withheld, only its instructions are served.',
  'mcp.withheld.changed':
    'The scripts of "{{skill}}" changed since they were approved in SkillDock: they are withheld until approved again.',
  'mcp.withheld.never': 'The script policy is "never": the scripts of "{{skill}}" are withheld, only its instructions are served.',
  'mcp.hidden.unapproved': '"{{skill}}" is not served: its scripts are not approved in SkillDock.',
  'mcp.hidden.changed': '"{{skill}}" is not served: its scripts changed since they were approved in SkillDock.',
  'mcp.hidden.never': '"{{skill}}" is not served: it has scripts and the script policy is "never".',
  'mcp.not-found': 'No skill "{{skill}}" is in the catalog.',
  'mcp.not-servable':
    '"{{skill}}" is not served: the Skills extension needs a SKILL.md whose frontmatter has a valid name (lower-case letters, digits and hyphens) and a description.',
  'mcp.unknown-skill': 'No skill is served at "{{skill}}".',
  'mcp.unknown-file': '"{{path}}" is not a file of the served skill "{{skill}}".',
  'mcp.file-withheld': '"{{path}}" of "{{skill}}" is withheld: the skill\'s scripts are not approved in SkillDock.',
  'mcp.file-too-large': '"{{path}}" is too large to serve ({{size}} bytes).',
} as const satisfies Record<string, string>;
