// English templates of why an agent drops, changes or hides a skill (the agent view's reasons).
// A reason that comes from a lint finding carries that finding's own `diag.*` message.

export const AGENT_MESSAGES = {
  'agent.reason.link-ignored': '{{agent}} does not follow a linked skill folder.',
  'agent.reason.same-name-random': '{{agent}} picks one of {{count}} skills named "{{name}}" at random.',
  'agent.reason.same-name-unknown': '{{agent}}\'s rule for {{count}} skills named "{{name}}" is not known.',
  'agent.reason.listed-left-out':
    '{{agent}} leaves this skill out: its skill listing stops at {{budget}} characters, and this skill and every one after it do not fit.',
  'agent.reason.listed-name-only':
    '{{agent}} lists it by name only: its listing of skills is past {{budget}} characters, so the description is left out.',
  'agent.reason.description-cut': '{{agent}} shortens the description to {{chars}} characters.',
  'agent.reason.listed-first-line':
    '{{agent}} keeps only the first line of the description: its listing of skills is past {{budget}} characters.',
  'agent.reason.listed-hidden':
    "{{agent}} leaves this skill out of its model's skill listing (`{{field}}`): only the user can start it there.",
  'agent.reason.same-name-hidden': 'Hidden by {{winner}} ({{agent}}: {{rule}}).',
  'agent.same-name-rule.user-wins': "the user's copy wins",
  'agent.same-name-rule.project-wins': "the project's copy wins",
  'agent.same-name-rule.later-tier-wins': 'the later folder wins',
  'agent.same-name-rule.all-listed': 'all copies are listed',
  'agent.same-name-rule.random': 'one copy at random',
  'agent.overflow.name-only':
    'past {{chars}} characters of skill listing, {{agent}} keeps its own skills in full and lists each other skill whose description no longer fits by name only, in listing order',
  'agent.overflow.drop-rest':
    '{{agent}} lists skills until the listing reaches {{chars}} characters; the first skill that does not fit and every one after it are left out',
  'agent.overflow.first-line':
    'past {{chars}} characters of skill listing (its own skills counted in), {{agent}} keeps its own skills in full and only the first line of every other description',
  'agent.order.label': '{{agent}} lists skills by name, character code by character code (capitals before small letters).',
  'agent.order.scope-then-label': "{{agent}} lists project skills first, then the user's, each by name, character code by character code.",
  'agent.order.user-scope-then-label':
    "{{agent}} lists the user's skills first, then the project's, each by folder name, alphabetically as the language of its environment sorts them.",
  'agent.order.builtins-then-scope-then-label':
    "{{agent}} lists its own skills first, then project skills, then the user's, each by name, character code by character code.",
  'agent.order.locale':
    '{{agent}} lists skills alphabetically by name, as the language of its environment sorts them (LC_ALL, LC_MESSAGES or LANG; here {{locale}}).',
  'agent.order.locale-unset':
    "{{agent}} lists skills alphabetically by name, as the language of its environment sorts them (LC_ALL, LC_MESSAGES or LANG; none is set here, so Unicode's default order).",
  'agent.order.root-collation': "{{agent}} lists skills alphabetically by name in Unicode's default order, whatever the system language.",
  'agent.order.unstable':
    "{{agent}}'s order changes from run to run (its file search reports skills as its parallel checks finish): the skills below are sorted by name, not in {{agent}}'s order.",
  'agent.overflow.share-tokens':
    '{{agent}} shares about {{tokens}} tokens among all skill lines; when the full listing does not fit, every description is cut to an equal share',
} as const satisfies Record<string, string>;
