// English templates of deployment messages (src/deploy/). `agents` is a list of agent ids the
// renderer and the CLI word as agent names; `folder` and `path` are absolute.

export const DEPLOY_MESSAGES = {
  'deploy.no-agents': 'Name at least one agent (--agent <id>) or all of them (--all-agents).',
  'deploy.folder-link':
    '{{folder}} (read by {{agents}}) is itself a link to {{target}}: SkillDock does not write through it. Make it a real folder, or deploy there by hand.',
  'deploy.folder-not-dir': '{{folder}} (read by {{agents}}) is a file, not a folder: nothing can be placed in it.',
  'deploy.folder-not-writable':
    '{{folder}} (read by {{agents}}) cannot be written: "{{skill}}" was not placed. Check the folder\'s permissions.',
  'deploy.folder-gone': '{{folder}} (read by {{agents}}) disappeared while "{{skill}}" was being placed; nothing was left half done.',
  'deploy.appeared': 'Something appeared at {{path}} while "{{skill}}" was being placed; it was left as it is.',
  'deploy.step-failed': '"{{skill}}" could not be placed at {{path}}: {{reason}}',
  'deploy.link-outside':
    '"{{skill}}" holds a link ({{file}} to {{target}}) that points outside the skill, so it cannot be copied to {{folder}}.',
  'deploy.foreign-entry':
    '{{path}} is not SkillDock\'s (put there by you or another tool): "{{skill}}" was not placed for {{agents}}. Adopt it into the library, or choose to replace it (it goes to SkillDock\'s trash).',
  'deploy.edited-copy':
    'The copy of "{{skill}}" at {{path}} was edited in place. Keep the edit (it becomes the library\'s version) or restore the library\'s version (the edit goes to the trash).',
  'deploy.repaired': '{{path}} was {{reason}}; put back as chosen.',
  'deploy.read-twice-unavoidable': '"{{skill}}" cannot be given to {{agents}} without one of them listing it twice.',
  'deploy.also-on': 'Turning "{{skill}}" on here also turns it on for {{agents}}: they read the same folder.',
  'deploy.scripts-unapproved':
    '"{{skill}}" has scripts you have not approved. Approve them first (skilldock approve {{skill}}), then deploy.',
  'deploy.scripts-changed': 'The scripts of "{{skill}}" changed since you approved them. Approve them again first, then deploy.',
  'deploy.high-risk-all': '"{{skill}}" has high-risk findings. Deploy it to every agent anyway?',
  'deploy.not-a-copy': '{{path}} is not a copy SkillDock placed.',
  'deploy.not-edited': 'The copy at {{path}} is as SkillDock placed it: there is no edit to keep.',
  'deploy.other-filesystem':
    "{{folder}} (read by {{agents}}) is on another filesystem than SkillDock's library: skills are placed there as copies, not links.",
} as const satisfies Record<string, string>;
