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
  'sources.reason.git-exit': 'git {{command}} ended with exit code {{code}} and gave no reason.',
} as const;

export const SOURCES_GIT_MESSAGES = {
  'sources.git-missing': 'SkillDock needs git to read {{source}}, and no `git` program was found. Install git and try again.',
  'sources.unreachable': 'Could not reach {{source}}: {{detail}}',
  'sources.unreachable-skill': 'Could not reach {{source}} (source of {{skill}}): {{detail}}',
  'sources.auth': 'Access to {{source}} was denied (check your git credentials or SSH key): {{detail}}',
  'sources.ref-missing': 'The branch, tag or commit asked for does not exist in {{source}}: {{detail}}',
  'sources.not-repo': '{{source}} is not a git repository SkillDock can read: {{detail}}',
  'sources.local-folder':
    '{{source}} is a folder, not a git repository. To bring its skills into your library, import the folder instead (skilldock import {{path}}).',
  'sources.git-failed': 'git failed on {{source}}: {{detail}}',
  'sources.timeout': '{{command}} for {{source}} timed out: it had not finished after {{seconds}} seconds.',
  'sources.stopped': '{{command}} for {{source}} was stopped before it finished.',
  'sources.deadline':
    'Stopped reading {{source}}: all sources of this request together may take {{seconds}} seconds, and that time ran out.',
  'sources.limit.too-many-files': '{{source}} has {{files}} files; SkillDock reads sources of at most {{max}} files.',
  'sources.limit.too-big': '{{source}} holds {{mb}} MB of files; SkillDock reads sources of at most {{max}} MB.',
  'sources.limit.file-too-big': '{{source}} has a file larger than {{max}} MB ({{path}}); SkillDock reads sources of at most {{max}} MB.',
  'sources.limit.download-too-big':
    'Fetching {{source}} was stopped once more than {{max}} MB had arrived; SkillDock reads sources of at most {{max}} MB.',
  'sources.archive-pin-ref':
    '{{skill}} comes from the archive {{source}}, which has no branches or tags: pin it without a ref to keep the version you have.',
  'sources.download.failed': 'Could not download {{source}}: {{detail}}',
  'sources.download.http': 'Could not download {{source}}: the server answered {{status}}.',
  'sources.download.too-big': '{{source}} is larger than {{mb}} MB; SkillDock does not download bigger archives.',
  'sources.download.timeout': 'Downloading {{source}} stopped: nothing arrived within {{seconds}} seconds.',
  'sources.download.redirects': '{{source}} redirected more than {{max}} times; SkillDock stopped following it.',
  'sources.download.bad-redirect': '{{source}} redirected to {{to}}, which SkillDock does not follow (https only leads to https).',
  'sources.no-skills':
    'No skills found in {{source}} (looked for SKILL.md in skills/, .claude/skills/, .agents/skills/, the root and plugin manifests).',
  'sources.no-skill-at': 'No skill found at {{path}} in {{source}}.',
  'sources.skill-not-in-source': '{{source}} has no skill named {{skill}}.',
  'sources.links-out':
    'Nothing was added from {{source}}: {{path}} leads outside the repository through a link, and SkillDock reads nothing from outside a source.',
  'sources.link-out-skipped': '{{path}} in {{source}} was skipped: it leads outside the repository through a link.',
  'sources.path-outside': '"{{path}}" is not a folder inside {{source}}: SkillDock follows a skill path only inside the repository.',
  'sources.lock-refused':
    '{{skill}} stays local-only (not checked or updated from a source): its entry in {{lock}} was refused. {{reason}}',
  'sources.layout-refused': '{{source}} was refused: {{why}}. Nothing was taken from it.',
  'sources.no-provenance': 'The skill {{skill}} was not added from a source, so it cannot be checked or updated.',
  'sources.check.up-to-date': '{{skill}} is up to date with {{source}}.',
  'sources.check.changed-locally': '{{skill}} was changed locally since it was installed from {{source}}; upstream has not changed.',
  'sources.check.update':
    '{{skill}}: update available from {{source}} ({{from}} → {{to}}: {{added}} added, {{changed}} changed, {{removed}} removed).',
  'sources.check.removed': '{{skill}}: upstream removed {{path}} from {{source}}.',
  'sources.check.moved': '{{skill}}: upstream moved {{path}} to {{to}} in {{source}}.',
  'sources.check.unreachable': '{{skill}}: could not check {{source}}: {{detail}}',
  'sources.check.ref-gone': '{{skill}}: {{source}} no longer has {{ref}}.',
  'sources.check.missing': '{{skill}} is no longer in the library (it came from {{source}}).',
  'sources.check.pinned': '{{skill}} is pinned to {{ref}} ({{source}}); not checked.',
} as const;

export const SOURCES_UPDATE_MESSAGES = {
  'sources.update.which': 'Name the skills to update, or use --all.',
  'sources.update.updated': '{{skill}} updated from {{source}} ({{from}} → {{to}}).',
  'sources.update.updated-approve':
    '{{skill}} updated from {{source}} ({{from}} → {{to}}); its scripts, hooks or allowed-tools changed, so it needs approval again before an assistant can launch with it.',
  'sources.update.conflict':
    '{{skill}} was not updated from {{source}}: {{count}} file(s) changed both here and upstream. Choose per file (take upstream, keep mine, or edit the merged text), or use --take upstream|mine.',
  'sources.update.link-out': '{{skill}} was not updated: upstream {{source}} has {{path}}, a link to {{target}} outside the skill.',
  'sources.update.no-base':
    '{{skill}} was not updated: the installed upstream version of {{source}} is no longer stored, so local edits cannot be told apart.',
  'sources.update.changed-meanwhile':
    '{{skill}} was not updated from {{source}}: it changed in the library while the update was prepared; run update again.',
} as const;

export const SOURCES_SHARE_MESSAGES = {
  'sources.share.out-relative': 'The export file {{file}} must be an absolute path.',
  'sources.share.out-not-file': '{{file}} exists and is not a regular file (a folder or a link); SkillDock does not write there.',
  'sources.share.no-file': 'No assistant file at {{file}}.',
  'sources.share.bad-file': '{{file}} is not an assistant file SkillDock can read ({{reason}}).',
  'sources.share.no-skills':
    'The assistant "{{name}}" was not created: none of the skills it lists ({{count}}) could be added. Create it anyway without them, or fix what failed and import it again.',
  'sources.share.archive-changed':
    'The archive at {{source}} has changed since the assistant was shared (shared {{commit}}, now {{now}}); its skills were not added. Add it again to take what it serves now.',
  'sources.share.local-missing': '{{skill}} was local-only on the machine it came from and is not on this one; add it, then attach it.',
} as const;
