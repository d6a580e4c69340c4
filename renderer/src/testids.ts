// Every data-testid in the renderer, in one place: components and H5a's Playwright specs import these.
// Conventions:
// - Rows and per-item controls add the item's stable key with `rowId(base, key)`:
//   `skill-row-<entry id>` (e.g. `skill-row-library/pdf`), `assistant-row-<assistant id>`,
//   `assistant-skill-row-<skill name>`, `assistant-skill-remove-<skill name>`, `skill-picker-row-<skill name>`,
//   `import-result-row-<skill name>`, `launch-link-<skill>`, `launch-state-dir-<skill>`,
//   `conversation-row-<conversation id>`, `agent-card-<agent id>` (the agent's tab), `skill-agent-row-<agent id>`,
//   `skill-tab-<overview|body|files|diagnostics|security>`, select options `settings-language-<lang>`,
//   `launch-assistant-<assistant id>`, `assistant-agent-<agent id>`, `assistant-create-agent-<agent id>`.
//   Custom agents in Settings: `settings-custom-agent-row-<agent id>`, `settings-custom-agent-remove-<agent id>`.
// - Badges (`skill-badge-*`) repeat per row: scope them inside a row locator.
// - Useful data attributes: rows carry `data-status` (import results: the ImportStatus),
//   `data-verdict` (per-agent row), `data-missing` (assistant skill), `data-ok` (launch link),
//   `data-conversation` (launch result), `data-skill-name` (skill row), `data-status` on
//   `skill-approval-status`.
// - Pages: `page-<name>` via `pageId()`; the page is also in the hash (`#/assistants`).

export const TID = {
  // shell
  appShell: 'app-shell',
  nav: 'nav',
  navSkills: 'nav-skills',
  navAssistants: 'nav-assistants',
  navLaunch: 'nav-launch',
  navAgents: 'nav-agents',
  navSettings: 'nav-settings',
  page: 'page', // + `-${pageName}` via pageId()
  dropOverlay: 'drop-overlay',
  dropTarget: 'drop-target',
  connectionError: 'connection-error',

  // import
  importButton: 'import-button',
  importPickFolder: 'import-pick-folder',
  importPickArchive: 'import-pick-archive',
  importFileInput: 'import-file-input',
  importFolderInput: 'import-folder-input',
  importProgress: 'import-progress',
  importSummary: 'import-summary',
  importSummaryClose: 'import-summary-close',
  importResultRow: 'import-result-row',
  conflictDialog: 'conflict-dialog',
  conflictReplace: 'conflict-replace',
  conflictKeepBoth: 'conflict-keep-both',
  conflictSkip: 'conflict-skip',
  undoButton: 'undo-button',

  // skills
  skillsSearch: 'skills-search',
  skillsFilterRoot: 'skills-filter-root',
  skillsFilterAgent: 'skills-filter-agent',
  skillsFilterProblems: 'skills-filter-problems',
  skillsFilterShadowed: 'skills-filter-shadowed',
  skillsCount: 'skills-count',
  skillsList: 'skills-list',
  skillRow: 'skill-row',
  skillBadgeRoot: 'skill-badge-root',
  skillBadgeErrors: 'skill-badge-errors',
  skillBadgeWarnings: 'skill-badge-warnings',
  skillBadgeShadowed: 'skill-badge-shadowed',
  skillBadgeLinked: 'skill-badge-linked',
  skillDrawer: 'skill-drawer',
  skillDrawerClose: 'skill-drawer-close',
  skillTabs: 'skill-tabs',
  skillTab: 'skill-tab', // + `-overview|body|files|diagnostics|security`
  skillBody: 'skill-body',
  skillFrontmatter: 'skill-frontmatter',
  skillFileTree: 'skill-file-tree',
  skillDiagnostics: 'skill-diagnostics',
  skillDiagnostic: 'skill-diagnostic',
  skillProvenance: 'skill-provenance',
  skillShadowChain: 'skill-shadow-chain',
  skillStateDir: 'skill-state-dir',
  skillLegacyPath: 'skill-legacy-path',
  skillAgentRow: 'skill-agent-row',
  skillSecurity: 'skill-security',
  skillApprove: 'skill-approve',
  skillRevoke: 'skill-revoke',
  skillApprovalStatus: 'skill-approval-status',
  skillApprovalDiff: 'skill-approval-diff',
  skillInventory: 'skill-inventory',
  skillSurfaceFile: 'skill-surface-file',

  // assistants
  assistantsList: 'assistants-list',
  assistantRow: 'assistant-row',
  assistantNew: 'assistant-new',
  assistantCreateName: 'assistant-create-name',
  assistantCreateAgent: 'assistant-create-agent',
  assistantCreateOk: 'assistant-create-ok',
  assistantDuplicate: 'assistant-duplicate',
  assistantDelete: 'assistant-delete',
  assistantLaunch: 'assistant-launch',
  assistantEditor: 'assistant-editor',
  assistantName: 'assistant-name',
  assistantAgent: 'assistant-agent',
  assistantPersona: 'assistant-persona',
  assistantPersonaPreview: 'assistant-persona-preview',
  assistantSave: 'assistant-save',
  assistantSkills: 'assistant-skills',
  assistantSkillRow: 'assistant-skill-row',
  assistantSkillMissing: 'assistant-skill-missing',
  assistantSkillRemove: 'assistant-skill-remove',
  assistantAddSkills: 'assistant-add-skills',
  removeConfirm: 'remove-confirm',
  removeConfirmOk: 'remove-confirm-ok',
  removeConfirmCancel: 'remove-confirm-cancel',
  skillPicker: 'skill-picker',
  skillPickerSearch: 'skill-picker-search',
  skillPickerRow: 'skill-picker-row',
  skillPickerConfirm: 'skill-picker-confirm',
  skillPickerApproval: 'skill-picker-approval',
  skillPickerReview: 'skill-picker-review',
  skillPickerApprove: 'skill-picker-approve',
  starterRow: 'starter-row',
  starterDuplicate: 'starter-duplicate',

  // launch
  launchAssistant: 'launch-assistant',
  launchModeTemp: 'launch-mode-temp',
  launchModeProject: 'launch-mode-project',
  launchProjectPath: 'launch-project-path',
  launchProjectPick: 'launch-project-pick',
  launchStart: 'launch-start',
  launchRefused: 'launch-refused',
  launchOmit: 'launch-omit',
  launchSkip: 'launch-skip',
  launchResult: 'launch-result',
  launchWorkspace: 'launch-workspace',
  launchMode: 'launch-mode',
  launchLink: 'launch-link',
  launchStateDir: 'launch-state-dir',
  launchCommand: 'launch-command',
  launchFirstMessage: 'launch-first-message',
  launchOpenTerminal: 'launch-open-terminal',
  launchReveal: 'launch-reveal',
  launchCopyCommand: 'launch-copy-command',
  launchCopyFirstMessage: 'launch-copy-first-message',
  conversationsList: 'conversations-list',
  conversationRow: 'conversation-row',
  conversationsClean: 'conversations-clean',

  // agents
  agentsList: 'agents-list',
  agentsProject: 'agents-project',
  agentsProjectApply: 'agents-project-apply',
  agentCard: 'agent-card',
  agentSkillRow: 'agent-skill-row',
  agentDroppedRow: 'agent-dropped-row',
  agentShadowRow: 'agent-shadow-row',
  agentDuplicateRow: 'agent-duplicate-row',
  agentBudget: 'agent-budget',
  agentCostRow: 'agent-cost-row',

  // settings
  settingsLanguage: 'settings-language',
  settingsTheme: 'settings-theme',
  settingsThemeLight: 'settings-theme-light',
  settingsThemeDark: 'settings-theme-dark',
  settingsThemeSystem: 'settings-theme-system',
  settingsExtraRoots: 'settings-extra-roots',
  settingsExtraRootInput: 'settings-extra-root-input',
  settingsExtraRootAdd: 'settings-extra-root-add',
  settingsExtraRootPick: 'settings-extra-root-pick',
  settingsExtraRootRemove: 'settings-extra-root-remove',
  settingsTerminal: 'settings-terminal',
  settingsCleanupDays: 'settings-cleanup-days',
  settingsScriptPolicy: 'settings-script-policy',
  settingsSave: 'settings-save',
  settingsCustomAgents: 'settings-custom-agents',
  settingsCustomAgentsEmpty: 'settings-custom-agents-empty',
  settingsCustomAgentRow: 'settings-custom-agent-row', // + `-${agent id}`
  settingsCustomAgentRemove: 'settings-custom-agent-remove', // + `-${agent id}`
  settingsCustomAgentRemoveOk: 'settings-custom-agent-remove-ok',
  settingsCustomAgentRemoveError: 'settings-custom-agent-remove-error',
  settingsCustomAgentAdd: 'settings-custom-agent-add',
  settingsCustomAgentForm: 'settings-custom-agent-form',
  settingsCustomAgentId: 'settings-custom-agent-id',
  settingsCustomAgentName: 'settings-custom-agent-name',
  settingsCustomAgentCommand: 'settings-custom-agent-command',
  settingsCustomAgentSkillsDir: 'settings-custom-agent-skills-dir',
  settingsCustomAgentContextFile: 'settings-custom-agent-context-file',
  settingsCustomAgentSubmit: 'settings-custom-agent-submit',
  settingsCustomAgentCancel: 'settings-custom-agent-cancel',
  settingsCustomAgentRefused: 'settings-custom-agent-refused',
} as const;

export type TestId = (typeof TID)[keyof typeof TID];

/** A list row's id: `skill-row-library/pdf`. Keys are ids from the contract, stable across renders. */
export function rowId(base: TestId, key: string): string {
  return `${base}-${key}`;
}

export const PAGES = ['skills', 'assistants', 'launch', 'agents', 'settings'] as const;
export type PageName = (typeof PAGES)[number];

export function pageId(page: PageName): string {
  return `${TID.page}-${page}`;
}
