import { flattenParams, interpolate, type MessageParams, type MessageRef } from './message-ref.js';
import { DIAG_MESSAGES } from './messages-diag.js';
import { AGENT_MESSAGES } from './messages-agents.js';
import { SECURITY_MESSAGES } from './messages-security.js';
import { IMPORT_MESSAGES } from './messages-import.js';
import { LAUNCH_MESSAGES } from './messages-launch.js';
import { EDITOR_MESSAGES } from './messages-editor.js';
import { VIEWER_MESSAGES } from './messages-viewer.js';
import { LOOKUP_MESSAGES } from './messages-lookup.js';
import { ASSISTANT_MESSAGES } from './messages-assistants.js';
import { SETTINGS_MESSAGES } from './messages-settings.js';
import { JOURNAL_MESSAGES } from './messages-journal.js';
import { SERVER_MESSAGES } from './messages-server.js';
import { STORE_MESSAGES } from './messages-store.js';
import { MCP_MESSAGES } from './messages-mcp.js';
import { INPUT_MESSAGES } from './messages-input.js';
import { PROJECT_MESSAGES } from './messages-project.js';
import { DISCOVER_MESSAGES } from './messages-discover.js';
import { DEPLOY_MESSAGES } from './messages-deploy.js';
import { VERIFY_MESSAGES } from './messages-verify.js';
import { SYNC_MESSAGES } from './messages-sync.js';
import { USAGE_MESSAGES } from './messages-usage.js';
import { SOURCES_GIT_MESSAGES, SOURCES_MESSAGES, SOURCES_SHARE_MESSAGES, SOURCES_UPDATE_MESSAGES } from './messages-sources.js';

// Plain data and functions only, no zod: the CLI's lean commands and the renderer's first script
// import this without building any contract schema (the schemas are in messages.ts). The renderer's
// first script imports only message-ref.ts: this table comes with the English locale.
//
// Every sentence the engine says to a user travels as a key and its parameters (a MessageRef),
// next to an English `message` for the CLI and for any client that does not know the key.
// The renderer words the key from its locale files (`engine.<key>`); the English here IS the
// `en` locale for those keys (the renderer builds it from this table), so there is one English
// source. Adding a key here without zh-CN, zh-TW and ja entries fails the locale test.
//
// Keys: `<domain>.<what>` in kebab-case; a plural pair is `<key>_one` / `<key>_other` driven by
// a `count` parameter, as i18next does. Placeholders are i18next's `{{name}}`.

export { isMessageRef, type MessageParam, type MessageParams, type MessageRef, type MessageScalar } from './message-ref.js';

/** English templates of every engine message key. */
export const ENGINE_MESSAGES = {
  ...DIAG_MESSAGES,
  ...AGENT_MESSAGES,
  ...SECURITY_MESSAGES,
  ...IMPORT_MESSAGES,
  ...LAUNCH_MESSAGES,
  ...EDITOR_MESSAGES,
  ...VIEWER_MESSAGES,
  ...LOOKUP_MESSAGES,
  ...ASSISTANT_MESSAGES,
  ...SETTINGS_MESSAGES,
  ...JOURNAL_MESSAGES,
  ...SERVER_MESSAGES,
  ...STORE_MESSAGES,
  ...MCP_MESSAGES,
  ...INPUT_MESSAGES,
  ...SOURCES_MESSAGES,
  ...SOURCES_GIT_MESSAGES,
  ...SOURCES_UPDATE_MESSAGES,
  ...SOURCES_SHARE_MESSAGES,
  ...PROJECT_MESSAGES,
  ...DISCOVER_MESSAGES,
  ...DEPLOY_MESSAGES,
  ...VERIFY_MESSAGES,
  ...SYNC_MESSAGES,
  ...USAGE_MESSAGES,
  'common.list-separator': ', ',
  'common.unknown-method': 'Unknown method: {{method}}',
  'common.io': 'A disk operation failed ({{errno}}): {{reason}}',
  'common.internal': 'Something went wrong inside SkillDock: {{reason}}',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof ENGINE_MESSAGES;

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The English template of `key` (plural form chosen by `count`), or undefined for an unknown key. */
export function englishTemplate(key: string, params?: MessageParams): string | undefined {
  const table = ENGINE_MESSAGES as Record<string, string>;
  if (params && typeof params.count === 'number') {
    const form = table[`${key}_${params.count === 1 ? 'one' : 'other'}`];
    if (form !== undefined) return form;
  }
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

/** The English sentence for a message; an unknown key falls back to the key itself. */
export function formatMessage(ref: MessageRef): string {
  const template = englishTemplate(ref.key, ref.params);
  if (template === undefined) return ref.key;
  return interpolate(template, flattenParams(ref.params, formatMessage, ENGINE_MESSAGES['common.list-separator']));
}

/** Base keys (plural suffixes removed) of every message, for tests and tools. */
export function messageKeys(): string[] {
  return [...new Set(Object.keys(ENGINE_MESSAGES).map((k) => k.replace(PLURAL, '')))];
}
