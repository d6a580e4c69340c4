// English templates of undo refusals (src/library/journal.ts) and of export/adopt/trash errors
// (src/library/library-service.ts, trash.ts). Placeholders are i18next's `{{name}}`.

export const JOURNAL_MESSAGES = {
  'journal.nothing-to-undo': 'Nothing to undo: the journal has no operation left to revert.',
  'journal.cannot-undo': 'Cannot undo: {{why}}. Nothing was changed.',
  'journal.gone': '{{path}} is gone',
  'journal.not-our-link': '{{path}} is no longer the link SkillDock made',
  'journal.now-link': '{{path}} is now a link',
  'journal.no-digest': '{{path}} has no recorded digest',
  'journal.modified': '{{path}} was modified after this operation',
  'journal.exists-again': '{{path}} exists again',
  'journal.outside': "Undo would touch {{path}}, outside SkillDock's home and the agents' skill folders",
  'journal.not-undoable': 'The last operation ({{op}}) cannot be undone automatically.',
  'journal.damaged':
    'The journal has lines that could not be read ({{lines}}). Undo stops at them; a repair (skilldock doctor --repair) keeps a copy of the damaged journal and recovers every readable entry.',
  'journal.damaged-kept':
    'The journal had lines that could not be read ({{lines}}): the damaged copy is kept at {{keptAt}}, and every readable entry was recovered. Undo stops at them.',
  'journal.damaged-line': 'A journal entry could not be read (line {{line}}, {{bytes}} bytes); the damaged journal is kept at {{keptAt}}.',
  'journal.damaged-line-unrepaired': 'A journal entry could not be read (line {{line}}, {{bytes}} bytes).',
  'journal.damaged-stop':
    'Cannot undo further: the journal entry before this point could not be read (line {{line}}), so undo cannot tell what it did. Nothing was changed.',
  'library.not-found': 'No skill named "{{name}}" in the library.',
  'library.unknown-agent': 'Unknown agent "{{agent}}".',
  'library.not-adoptable': "{{path}} is not a skill in an agent's user skills folder ({{roots}}).",
  'export.no-user-folder': '{{agent}} has no user skills folder to export to.',
  'export.bad-root': "{{root}} is not one of {{agent}}'s user skills folders ({{roots}}).",
  'export.already-link': '{{path}} is already a link (to {{target}}); remove it first to export there.',
  'export.exists': "{{path}} already exists and is not SkillDock's; SkillDock never replaces a real folder.",
  'export.link-outside': '{{file}} is a link to {{target}}, outside the skill folder',
  'trash.not-found': 'No trash entry "{{id}}".',
  'trash.unexpected': 'Trash entry "{{id}}" holds unexpected files ({{files}}); restore it by hand.',
} as const satisfies Record<string, string>;
