// English templates of `verifyAgent` (src/verify/): why a check with the real CLI could not run,
// and what to do where the capture differs from the prediction.

export const VERIFY_MESSAGES = {
  'verify.unsupported': '{{agent}} cannot be checked with its real CLI: SkillDock does not know how to point it at a local recorder.',
  'verify.cli-missing':
    "{{agent}}'s CLI (`{{command}}`) is not on PATH. Install it, or give its path (settings `agentCli`, or `--cli PATH`).",
  'verify.cli-path-missing': 'No program for {{agent}} at {{path}}.',
  'verify.workspace-missing': 'The folder {{path}} does not exist.',
  'verify.workspace-or-assistant': 'Give a workspace or an assistant, not both.',
  'verify.assistant-agent': 'The assistant {{assistant}} runs {{actual}}, not {{agent}}.',
  'verify.start-failed': '{{agent}} at {{path}} could not be started: {{reason}}',
  'verify.timeout':
    '{{agent}} did not finish within {{seconds}} s and was stopped, with everything it started. It may be waiting for a login or for input.',
  'verify.login':
    '{{agent}} {{version}} asked for a login instead of calling the local recorder. SkillDock never uses your credentials; checked to work with {{checkedOn}}.',
  'verify.ignored-base-url':
    '{{agent}} {{version}} ended (exit {{status}}) without calling the local recorder: this version ignores the setting SkillDock points it with ({{setting}}). Checked to work with {{checkedOn}}.',
  'verify.no-listing':
    '{{agent}} {{version}} called the local recorder, but its request holds no skill listing SkillDock can read (read as {{checkedOn}} sends it).',
  'verify.note.version':
    "{{agent}} {{version}} is not the version SkillDock's rules were measured on ({{checkedOn}}): where they differ, trust the capture.",
  'verify.advice.shortened': '{{agent}} cuts this description to {{chars}} characters: shorten it so its model reads all of it.',
  'verify.advice.name-only':
    "{{agent}}'s skill listing is full, so its model sees only this skill's name: shorten descriptions or turn off skills this agent does not need.",
  'verify.advice.missing':
    "{{agent}} does not show this skill to its model: look at the skill's findings for {{agent}} and the folders {{agent}} reads.",
  'verify.advice.unexpected':
    '{{agent}} lists a skill SkillDock did not predict: it comes from a folder or plugin SkillDock does not know. Add that folder as a root to manage it.',
  'verify.advice.listed-anyway': "{{agent}} lists this skill though SkillDock predicted it would not: this version's loader accepts it.",
  'verify.advice.text': "{{agent}} words this description differently from SkillDock's prediction: its model reads the captured text.",
} as const satisfies Record<string, string>;
