// English templates of project scope (src/deploy/project.ts, install.ts, lock-file.ts).
// Placeholders are i18next's `{{name}}`.

export const PROJECT_MESSAGES = {
  'project.not-folder': '{{path}} is not a folder SkillDock can use as a project.',
  'project.inside-home':
    "{{path}} is inside SkillDock's home ({{home}}). Pick a project folder outside it: SkillDock does not write its own folders as a project.",
  'project.contains-home':
    "{{path}} holds SkillDock's home ({{home}}). Pick a project folder that does not contain it: SkillDock does not write its own folders as a project.",
  'project.user-home':
    '{{path}} is your home folder: the agents read its skills folders as your user folders. Pick a project folder inside it instead.',
  'project.unknown-agent': 'No agent "{{agent}}" in the registry (see skilldock agents).',
  'project.no-project-folder': '{{agent}} reads no skills folder inside a project.',
  'project.unknown-skill': 'No skill "{{skill}}" in the library.',
  'project.folder-link':
    '{{path}} in the project is a link: SkillDock never writes through a link. Replace it with a folder, or choose other agents.',
  'project.taken':
    '{{path}} is already there with other content: SkillDock never overwrites what it did not put there. Move it away first.',
  'project.needs-approval': 'The scripts of {{skill}} are not approved yet: approve them before placing it in a project.',
  'project.not-locked': '{{skill}} has no source a teammate can fetch (it was not added from git), so skills-lock.json does not list it.',
  'project.also-read': 'Placing skills in {{folder}} gives them to {{agents}} as well: those agents read that folder too.',
  'project.read-twice': '{{agents}} will see these skills twice (they read two of the chosen folders).',
  'project.refused': 'Nothing was written in {{project}}: {{problems}}',
  'project.plan-changed': 'The project changed since the plan was shown. Look at the new plan and apply again.',
  'project.link-wrong': 'The link {{path}} did not lead to {{target}} after it was made; nothing was kept.',
  'project.lock-missing': '{{project}} has no skills-lock.json to install from.',
  'project.lock-bad': '{{path}} is not a skills-lock.json SkillDock can read: {{reason}}',
  'project.lock-name': 'The skill name "{{skill}}" in {{path}} is not a folder name SkillDock can write.',
  'project.lock-source-type':
    '{{skill}} comes from a {{type}} source in skills-lock.json, which SkillDock cannot restore (git, GitHub and GitLab sources only).',
  'project.lock-no-hash': '{{skill}} has no computedHash in skills-lock.json, so its content cannot be checked.',
  'project.unreachable': 'Could not fetch {{skill}} from {{source}}: {{detail}}',
  'project.not-in-source': '{{source}} has no skill at {{path}} (needed for {{skill}}).',
  'project.hash-differs':
    '{{skill}} from {{source}} is not what skills-lock.json locked: its content hash is {{actual}}, the lock says {{expected}}. Nothing was installed.',
  'project.present-differs':
    '{{path}} holds {{skill}} with content other than skills-lock.json locked (hash {{actual}}); it is left as it is.',
  'project.install-approve': '{{skill}} was added to the library as {{library}}; approve its scripts, then install again.',
} as const;
