// English templates of catalogs, their indexes and search (src/discover/).
// Placeholders are i18next's `{{name}}`.

export const DISCOVER_MESSAGES = {
  'discover.no-catalog': 'There is no catalog named {{id}} (see skilldock catalog list).',
  'discover.exists': 'A catalog named {{id}} already exists ({{url}}).',
  'discover.same-url': '{{url}} is already the catalog {{id}}.',
  'discover.bad-id':
    '"{{id}}" is not a catalog name SkillDock can use: 1-64 characters of a-z, 0-9 and -, starting with a letter or digit.',
  'discover.bad-url': '"{{url}}" is not an address SkillDock reads a {{kind}} catalog from: use https (http only on this computer).',
  'discover.off': '{{id}} is turned off; turn it on to refresh it.',
  'discover.refreshed': '{{id}}: {{skills}} skills indexed ({{added}} added, {{changed}} changed, {{removed}} removed).',
  'discover.unchanged': '{{id}}: nothing changed since the last refresh ({{skills}} skills).',
  'discover.fresh': '{{id}} was refreshed less than a day ago; refresh it now with --force.',
  'discover.live': '{{id}} is a search service: it is asked at each search and keeps no index.',
  'discover.failed': '{{id}} could not be refreshed; the index from before stays searchable. {{detail}}',
  'discover.http': '{{url}} answered {{status}}.',
  'discover.timeout': '{{url}} did not answer within {{seconds}} seconds.',
  'discover.unreachable': 'Could not reach {{url}}: {{detail}}',
  'discover.too-big': '{{url}} sent more than {{mb}} MB; SkillDock stopped reading it.',
  'discover.bad-index': '{{url}} is not a skills index SkillDock can read: {{reason}}',
  'discover.reason.json': 'it is not valid JSON.',
  'discover.reason.shape': 'it has no "skills" list.',
  'discover.reason.results': 'it has no "skills" list of results.',
  'discover.entries-skipped':
    '{{count}} entries of {{id}} were left out: a name, description or file path SkillDock refuses (control characters, "..", absolute paths).',
  'discover.too-many-skills': '{{id}} offers {{count}} skills; SkillDock indexes at most {{max}} per catalog.',
  'discover.too-many-files': '{{id}} has {{files}} files; SkillDock indexes catalogs of at most {{max}} files.',
  'discover.not-indexed': 'Catalog {{id}} has no skill at {{path}} in its index; refresh it or search again.',
  'discover.changed': '{{skill}} changed in {{id}} since its preview ({{from}} → {{to}}); look at the new preview before installing.',
  'discover.moved': '{{skill}} moved in {{id}}: it is now at {{to}}. Look at its preview there before installing.',
  'discover.gone': '{{skill}} is no longer in {{id}}.',
  'discover.search-failed': 'The search service {{id}} gave no results: {{detail}}',
  'discover.remote-unjudged':
    '{{count}} results of the search service {{id}} are not shown: the filters can judge such a result only once it has been previewed.',
} as const satisfies Record<string, string>;
