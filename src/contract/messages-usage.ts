// English of the usage ledger's messages (issue 30). Placeholders are i18next's.

export const USAGE_MESSAGES = {
  'usage.logs-off': "Reading the agents' own session logs is off. Turn it on in Settings (Usage), or run `skilldock usage scan --opt-in`.",
} as const satisfies Record<string, string>;
