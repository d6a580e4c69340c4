// English templates of launch errors and launch problems (src/workspaces/). Placeholders are
// i18next's `{{name}}`.

export const LAUNCH_MESSAGES = {
  'launch.workspace-missing': 'Workspace {{path}} does not exist',
  'launch.workspace-not-dir': 'Workspace {{path}} is not a directory',
  'launch.workspace-root': '{{path}} is the root of the disk: the agent could write anywhere. Choose a project folder.',
  'launch.workspace-home': '{{path}} is your home folder: the agent could write your private files. Choose a project folder.',
  'launch.workspace-system':
    "{{path}} is a system folder ({{folder}}): the agent could change your operating system's files. Choose a project folder.",
  'launch.workspace-skilldock':
    "{{path}} holds SkillDock's own files (approvals, settings, assistants): the agent could approve its own scripts. Choose a project folder.",
  'launch.workspace-temporary': '{{path}} is a SkillDock temporary workspace; choose your own project folder instead',
  'launch.problem.link-failed': 'Could not link the skill: {{reason}}',
  'launch.problem.no-state-id': 'Skill "{{skill}}" has no usable name for a state dir; it gets none.',
  'launch.problem.state-dir': 'State dir for "{{skill}}": {{reason}}',
  'launch.problem.script-blocked': 'Scripts of "{{skill}}" must not run: {{why}}',
  'launch.problem.guard': 'The skilldock CLI was not found, so no write guard was installed.',
  'launch.problem.missing': 'Skill "{{skill}}" is attached but no longer in the catalog.',
  'launch.problem.bad-name': 'Skill name "{{skill}}" cannot be used as a folder name; not linked.',
  'launch.problem.duplicate-name': 'Two attached skills are named "{{skill}}"; only the first is linked.',
  'launch.problem.script-advisory':
    '"{{skill}}" was placed without its scripts, but {{agent}} runs no hook and has no sandbox SkillDock can turn on: the block is advisory (its rules only ask it not to run them).',
  'launch.problem.script-omitted': '"{{skill}}" was left out of this conversation: {{why}}.',
  'launch.script-why.never': 'the script policy is "never": skill scripts do not run',
  'launch.script-why.changed': 'its scripts changed since the user approved them; they must be approved again in SkillDock',
  'launch.script-why.unapproved': 'its scripts have not been approved by the user in SkillDock',
  'launch.no-terminal': 'No terminal program found ({{programs}}); set the terminal command in Settings (for example "kitty {command}").',
  'launch.no-display': 'No terminal can be opened: this session has no display. Copy the command and run it in a terminal yourself.',
  'launch.terminal-exited': 'The terminal {{program}} closed at once ({{status}}): it could not show itself on this display.',
  'launch.terminal-failed': 'Could not start the terminal {{program}}: {{reason}}',
  'launch.no-command': 'Agent "{{agent}}" has no command to run; start it yourself in {{path}}',
  'launch.unknown-conversation': 'Unknown conversation "{{id}}"',
  'launch.cleaned-up': 'Conversation {{id}} was cleaned up on {{when}}',
} as const satisfies Record<string, string>;
