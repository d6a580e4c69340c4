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
  'agent.overflow.share-tokens':
    '{{agent}} shares about {{tokens}} tokens among all skill lines; when the full listing does not fit, every description is cut to an equal share',
} as const satisfies Record<string, string>;
